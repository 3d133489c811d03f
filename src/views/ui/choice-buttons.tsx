import { Button } from './button';

export interface ChoiceButtonsProps<T extends string> {
  /** The group's name (`aria-label`). */
  label: string;
  options: readonly T[];
  value: T;
  /** What each option's button says. */
  optionLabel: (option: T) => string;
  onChoose: (option: T) => void;
}

/** A few options side by side as buttons, the chosen one pressed (`aria-pressed`): a chart's view, a ranking's order. */
export function ChoiceButtons<T extends string>({ label, options, value, optionLabel, onChoose }: ChoiceButtonsProps<T>) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md border p-0.5">
      {options.map((option) => (
        <Button
          key={option}
          type="button"
          size="sm"
          variant={option === value ? 'secondary' : 'ghost'}
          aria-pressed={option === value}
          onClick={() => onChoose(option)}
        >
          {optionLabel(option)}
        </Button>
      ))}
    </div>
  );
}
