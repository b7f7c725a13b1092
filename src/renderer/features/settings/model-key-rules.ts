/**
 * Where a model's saved key may go (pure): a saved key stays with the origin it was saved for
 * unless the user keeps it on purpose or types a new one; another model of a saved one's provider
 * reuses that model's key on the same origin only. The host applies the same rule
 * (`ModelsService`); this is what the editor shows and asks before it saves.
 */
import { originOf } from '../../../shared/url-origin';
import type { ModelView } from '../../data/models';

/** What the editor's key fields show. */
export interface KeyRules {
  /** Saving would move the saved key to another origin (the editor asks to keep it). */
  keyWouldMove: boolean;
  /** The saved model whose key a new sibling model would reuse, or null. */
  templateKey: ModelView | null;
  /** Whether that key applies (same origin as the template). */
  templateKeyApplies: boolean;
}

/** The key rules for the editor's current fields. */
export function keyRules(input: {
  saved: ModelView | null;
  template: ModelView | null;
  baseUrl: string;
  apiKey: string;
  clearKey: boolean;
}): KeyRules {
  const { saved, template, baseUrl, apiKey, clearKey } = input;
  const keyWouldMove =
    saved !== null &&
    saved.apiKeyMasked !== null &&
    !clearKey &&
    apiKey.trim() === '' &&
    originOf(baseUrl.trim()) !== originOf(saved.baseUrl);
  const templateKey =
    template !== null && template.apiKeyMasked !== null && apiKey.trim() === '' ? template : null;
  const templateKeyApplies =
    templateKey !== null && originOf(baseUrl.trim()) === originOf(templateKey.baseUrl);
  return { keyWouldMove, templateKey, templateKeyApplies };
}
