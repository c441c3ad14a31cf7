import type { Bundle } from './protocol';

/**
 * A related-code bundle as markdown context to paste into an AI assistant.
 * Mirrors `to_markdown` in server/codekith/related.py, so the CLI and the editor give
 * the same text for the same bundle.
 */
export function bundleToMarkdown(bundle: Bundle): string {
  const lines = [
    `# Code related to: ${bundle.target}`,
    '',
    `${bundle.items.length} items, ~${bundle.tokens} tokens (budget ${bundle.budget})` +
      (bundle.truncated ? ', truncated' : '') +
      `; intent: ${bundle.intent}.`,
  ];
  if (bundle.fresh === false) {
    lines.push(
      `Note: the index is behind (${(bundle.stale ?? []).length} stale ` +
        'files); some code may have changed.',
    );
  }
  for (const item of bundle.items) {
    lines.push(
      '',
      `## ${item.qualname} (${item.reason})`,
      `\`${item.path}:${item.start_line}-${item.end_line}\` · ${item.kind} · score ${item.score.toFixed(3)}`,
      '',
      '```' + item.language,
      item.code,
      '```',
    );
  }
  return lines.join('\n') + '\n';
}
