// What the phone-network benches (t, m) share: Debian's Chromium, a network and CPU profile applied through
// the DevTools protocol to every page and every service worker, and marks the page records itself (the
// first animation frame where an element is in the DOM with a box, and the last click), so Playwright's
// polling adds nothing to a figure.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { median, round } from './support';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];

export interface ThrottleProfile {
  latencyMs: number;
  downloadBytesPerS: number;
  uploadBytesPerS: number;
  cpuSlowdown: number;
}

/**
 * Installed in every document before its scripts: records when each watch first holds, and every click.
 * A string, not a function: tsx would wrap a function's inner functions in helpers the page lacks.
 */
export const watcherScript = (watches: Record<string, string[]>): string => `(() => {
  const watches = ${JSON.stringify(watches)};
  const marks = {};
  const state = { marks, lastClick: 0 };
  window.__benchThrottle = state;
  const shown = (selector) => {
    const element = document.querySelector(selector);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  let scheduled = false;
  const check = () => {
    scheduled = false;
    const now = performance.now();
    for (const [name, selectors] of Object.entries(watches)) {
      if (marks[name] === undefined && selectors.every(shown)) marks[name] = now;
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(check);
  };
  window.addEventListener('click', () => { state.lastClick = performance.now(); }, true);
  new MutationObserver(schedule).observe(document, { childList: true, subtree: true, attributes: true });
})();`;

export interface PageMarks {
  marks: Partial<Record<string, number>>;
  lastClick: number;
  timeOrigin: number;
}

const readMarks = (page: Page): Promise<PageMarks> =>
  page.evaluate(() => {
    const state = (window as unknown as { __benchThrottle?: { marks: Record<string, number>; lastClick: number } }).__benchThrottle;
    return { marks: state?.marks ?? {}, lastClick: state?.lastClick ?? 0, timeOrigin: performance.timeOrigin };
  });

/** Waits (polling every 100 ms, not on every frame: the CPU is throttled) until `name` has its mark. */
export async function waitForMark(page: Page, name: string, failure: string, timeoutMs: number): Promise<PageMarks> {
  const started = Date.now();
  for (;;) {
    const state = await readMarks(page).catch(() => null);
    if (state?.marks[name] !== undefined) return state;
    if (Date.now() - started > timeoutMs) throw new Error(`${failure}: no apareció en ${timeoutMs} ms`);
    await page.waitForTimeout(100);
  }
}

/** A page with the profile applied through its own CDP session (before it loads anything). */
export async function throttledPage(context: BrowserContext, profile: ThrottleProfile): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.downloadBytesPerS,
    uploadThroughput: profile.uploadBytesPerS,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  return page;
}

/**
 * A service worker's own fetches are not the page's: the page's emulation leaves them at full speed (a
 * request the worker passes on to the network would come back in 20 ms instead of 650). Every service
 * worker the browser starts gets the same profile through its own target, attached as soon as it appears
 * (what its very first moments fetch, before the attach, may still go unthrottled).
 */
export async function throttleServiceWorkers(browser: Browser, profile: ThrottleProfile): Promise<void> {
  const cdp = await browser.newBrowserCDPSession();
  let id = 0;
  cdp.on('Target.targetCreated', (event) => {
    if (event.targetInfo.type !== 'service_worker') return;
    void (async () => {
      // Browser-level sessions cannot auto-attach without flattening, which Playwright's API does not expose.
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: event.targetInfo.targetId, flatten: false });
      const send = (method: string, params: object) =>
        cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) });
      await send('Network.enable', {});
      await send('Network.emulateNetworkConditions', {
        offline: false,
        latency: profile.latencyMs,
        downloadThroughput: profile.downloadBytesPerS,
        uploadThroughput: profile.uploadBytesPerS,
      });
      await send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    })().catch(() => undefined);
  });
  await cdp.send('Target.setDiscoverTargets', { discover: true });
}

/** One figure of a phone-network bench: every run's time, their median and the target it is judged by. */
export interface FigureReport<Figure extends string> {
  figure: Figure;
  label: string;
  runsMs: number[];
  medianMs: number;
  targetMs: number | null;
  withinTarget: boolean | null;
}

/** Each figure of `targets` (in their order) over the runs' times: its median against its target. */
export function judgeFigures<Figure extends string>(
  runs: readonly Record<Figure, number>[],
  targets: Record<Figure, number | null>,
  labels: Record<Figure, string>,
): FigureReport<Figure>[] {
  return (Object.keys(targets) as Figure[]).map((figure) => {
    const runsMs = runs.map((times) => round(times[figure]));
    const medianMs = round(median(runsMs));
    const targetMs = targets[figure];
    return { figure, label: labels[figure], runsMs, medianMs, targetMs, withinTarget: targetMs === null ? null : medianMs <= targetMs };
  });
}

/** One line per figure: its median, its target and verdict, every run. */
export function printFigures(figures: readonly FigureReport<string>[]): void {
  for (const figure of figures) {
    const verdict = figure.withinTarget === null ? 'informado' : figure.withinTarget ? 'OK' : 'OVER';
    const target = figure.targetMs === null ? '' : ` / objetivo ≤ ${figure.targetMs} ms`;
    console.log(
      `    ${figure.label.padEnd(46)}${String(figure.medianMs).padStart(6)} ms${target} → ${verdict}  [${figure.runsMs.join(', ')}]`,
    );
  }
}
