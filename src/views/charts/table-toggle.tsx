// "Ver tabla" / "Ocultar tabla": the button that shows a chart's data table to sighted users (screen readers
// read the table always). Shared by the bar chart and the 100 % bar. At least 24 px tall: a target a thumb hits.
export function TableToggle({
  shown,
  controls,
  onToggle,
  showLabel,
  hideLabel,
  slot,
}: {
  shown: boolean;
  controls: string;
  onToggle: () => void;
  showLabel: string;
  hideLabel: string;
  slot: string;
}) {
  return (
    <div>
      <button
        type="button"
        aria-expanded={shown}
        aria-controls={controls}
        onClick={onToggle}
        className="inline-flex min-h-6 min-w-6 items-center rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        data-slot={slot}
      >
        {shown ? hideLabel : showLabel}
      </button>
    </div>
  );
}
