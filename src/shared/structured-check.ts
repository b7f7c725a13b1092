/**
 * How a tool's structured result compares with its output schema, in the trace card's English
 * words, for the CLI's trace and the Markdown export (the card itself uses the i18n strings).
 */
import type { StructuredToolOutput } from './turn-events';

/** How the structured result compares with the tool's output schema, as the trace card says. */
export function structuredCheckText(structured: StructuredToolOutput): string {
  switch (structured.check) {
    case 'valid':
      return 'matches the tool’s output schema';
    case 'invalid':
      return `does not match the tool’s output schema: ${structured.problem ?? ''}`;
    case 'unchecked':
      return 'not checked: the tool’s output schema could not be used';
    case 'none':
      return 'the tool declares no output schema';
  }
}
