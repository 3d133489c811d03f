// A post's text as paragraphs (a blank line starts one, a line break stays), with its web addresses as
// links that open apart and tell the next page nothing. Only text nodes and <a> are made: the body is never
// read as HTML.
import { Fragment } from 'react';

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]}'»]/gi;

/** The text cut into plain parts and addresses. */
function linkParts(text: string): Array<{ text: string; href?: string }> {
  const parts: Array<{ text: string; href?: string }> = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: match[0], href: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

export function PostBody({ body }: { body: string }) {
  const paragraphs = body
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div data-slot="post-body" className="flex flex-col gap-2 break-words">
      {paragraphs.map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of a text that is only read: their position is their identity.
        <p key={index}>
          {paragraph.split('\n').map((line, lineIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a paragraph that is only read: their position is their identity.
            <Fragment key={lineIndex}>
              {lineIndex > 0 && <br />}
              {linkParts(line).map((part, partIndex) =>
                part.href ? (
                  <a
                    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a line that is only read: their position is their identity.
                    key={partIndex}
                    href={part.href}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="text-primary underline underline-offset-2"
                  >
                    {part.text}
                  </a>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a line that is only read: their position is their identity.
                  <Fragment key={partIndex}>{part.text}</Fragment>
                ),
              )}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  );
}
