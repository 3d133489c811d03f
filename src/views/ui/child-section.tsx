import type * as React from 'react';
import { ListFailure } from './list-state';

export interface ChildSectionProps<TChild> {
  /** The child actor the screen's machine runs the section with; undefined once it crashed or before it starts. */
  child: TChild | undefined;
  crashed: boolean;
  crashedText: string;
  retryLabel: string;
  /** Starts a new child (the screen's machine does). */
  onRestart: () => void;
  children: (child: TChild) => React.ReactNode;
}

/**
 * A section of a screen that the screen's machine runs as a child actor (the activity summary, the usage
 * chart, a course's call list): the section while the child runs; once it crashed, what happened and
 * Reintentar, which starts a new one; nothing before it starts. The rest of the screen stays as it is.
 */
export function ChildSection<TChild>({ child, crashed, crashedText, retryLabel, onRestart, children }: ChildSectionProps<TChild>) {
  if (child) return children(child);
  return crashed ? <ListFailure message={crashedText} retryLabel={retryLabel} onRetry={onRestart} /> : null;
}
