import type * as React from 'react';

/** One term and its value in a `<dl>` of facts about a row (who, when, what), wrapping on a phone. */
export function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div data-slot="fact" className="flex flex-wrap gap-x-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
