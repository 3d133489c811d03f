// Hands fetched bytes to the browser as a download: a link to a temporary object URL, clicked, then let go.
// The file came through fetch because the guardian API wants the bearer token, which a plain link cannot send.
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Later, not now: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
