/**
 * Pure rules of the composer's pickers: the model choices (saved models and the model given by
 * AIVORY_* at start-up), what a tool switch stores, and where an inserted prompt goes.
 */
import type { InvokeResponse } from '../../shared/ipc-contract';

type ModelList = InvokeResponse<'models.list'>;
/** One tool row of `conversations.tools`. */
export type ConversationTool = InvokeResponse<'conversations.tools'>['tools'][number];

/** One entry of the model picker; `id` null is "the default" (environment, else saved default). */
export interface ModelChoice {
  id: string | null;
  /** The model name shown (labels are the user's own text, shown as typed). */
  label: string;
  /** Which i18n wording applies: the default entry, a saved model, or the saved default. */
  kind: 'automatic' | 'saved';
}

/**
 * The default first (the environment model when one was given, else the saved default model),
 * then every saved model by its label.
 */
export function modelChoices(list: ModelList): ModelChoice[] {
  const savedDefault = list.models.find((model) => model.isDefault) ?? null;
  const automaticLabel = list.environmentModel?.model ?? savedDefault?.label ?? '';
  const choices: ModelChoice[] = [];
  if (automaticLabel !== '') choices.push({ id: null, label: automaticLabel, kind: 'automatic' });
  for (const model of list.models)
    choices.push({ id: model.id, label: model.label, kind: 'saved' });
  return choices;
}

/**
 * What checking or unchecking a tool stores for the conversation: null (no switch of its own)
 * when the new state is the model's default anyway, else the explicit on/off.
 */
export function toggleValue(tool: ConversationTool, checked: boolean): boolean | null {
  return checked === tool.defaultOn ? null : checked;
}

/** The composer text after inserting `inserted`: appended on its own paragraph. */
export function insertIntoComposer(current: string, inserted: string): string {
  if (current.trim() === '') return inserted;
  return `${current.replace(/\s+$/, '')}\n\n${inserted}`;
}
