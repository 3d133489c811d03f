// A QR code drawn as our own SVG (for the news wall's printable week): `uqr` encodes, the dark modules are one
// <path> of unit squares styled by class (the CSP forbids inline styles), on a white quiet zone.
import { encode } from 'uqr';
import { cn } from '../../lib/utils';

/** Modules of white around the code (the standard asks for 4; paper around it adds more). */
const QUIET = 2;

/** The dark modules as one path: each row's runs of dark modules become one rectangle. */
export function qrPathOf(modules: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x += 1;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  });
  return parts.join('');
}

export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  const box = size + QUIET * 2;
  return (
    <svg
      data-slot="qr-code"
      role="img"
      aria-label={label}
      viewBox={`${-QUIET} ${-QUIET} ${box} ${box}`}
      shapeRendering="crispEdges"
      className={cn('bg-white', className)}
    >
      <rect x={-QUIET} y={-QUIET} width={box} height={box} className="fill-white" />
      <path d={qrPathOf(data)} className="fill-black" />
    </svg>
  );
}
