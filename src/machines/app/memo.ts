// Derived values that belong to the actor they are derived from. A selector runs on every snapshot and
// must answer the same reference while its value is unchanged (useSelector compares by reference), so
// costly derived data (sorted rows, a search's rows, the SMS counter) is remembered. It is remembered per
// owner: an object of one actor's own (its fetched rows, its members, its picker), never in one module
// slot shared by every actor of the kind, where two actors alternating evict each other (a new array each
// time, so a re-render each time) and one test's entry survives into the next. The entry goes with its
// owner (WeakMap).

/**
 * `derive` remembered per owner: each owner keeps its own last inputs (compared with `Object.is`) and
 * result, so calls for other owners never replace it.
 */
export function memoPerOwner<O extends object, I extends readonly unknown[], R>(
  derive: (owner: O, ...inputs: I) => R,
): (owner: O, ...inputs: I) => R {
  const last = new WeakMap<O, { inputs: I; result: R }>();
  return (owner, ...inputs) => {
    const entry = last.get(owner);
    if (entry && entry.inputs.length === inputs.length && entry.inputs.every((value, i) => Object.is(value, inputs[i])))
      return entry.result;
    const result = derive(owner, ...inputs);
    last.set(owner, { inputs, result });
    return result;
  };
}
