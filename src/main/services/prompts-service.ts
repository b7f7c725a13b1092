/**
 * Prompt templates: the user's personal library of prompts to insert into the composer. A body may
 * hold `{{variable}}` placeholders; `templateVariables` names them and `fillTemplate` fills them.
 */
import { fillPlaceholders, placeholderNames } from '../../shared/prompt-template-text';
import type { PromptTemplate, PromptTemplateWithVariables } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { IdGenerator, PromptTemplateStore } from '../core/ports';

/** A template is a prompt, not a document: it is pasted into one message. */
export const MAX_PROMPT_BODY_BYTES = 20 * 1024;
export const MAX_PROMPT_TITLE_CHARS = 200;
/** Tags are for filtering a personal library; a handful is plenty. */
export const MAX_PROMPT_TAGS = 10;
export const MAX_PROMPT_TAG_CHARS = 40;

export interface PromptTemplateInput {
  title: string;
  body: string;
  tags?: string[];
}

/** The distinct placeholder names of `body`, in order of first appearance. */
export const templateVariables = placeholderNames;

/** Replaces each placeholder that has a value in `values`; the others stay as written. */
export const fillTemplate = fillPlaceholders;

function invalid(message: string): AivoryError {
  return new AivoryError('invalid-input', message);
}

function checkTitle(title: string): string {
  const text = title.trim();
  if (text === '') throw invalid('The prompt title is empty.');
  if (/[\r\n]/.test(text)) throw invalid('The prompt title must be one line.');
  if (text.length > MAX_PROMPT_TITLE_CHARS) {
    throw invalid(`The prompt title is longer than ${MAX_PROMPT_TITLE_CHARS} characters.`);
  }
  return text;
}

function checkBody(body: string): void {
  if (body.trim() === '') throw invalid('The prompt body is empty.');
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_PROMPT_BODY_BYTES) {
    throw invalid(
      `The prompt body is ${bytes} bytes; the limit is ${MAX_PROMPT_BODY_BYTES} bytes (20 KiB).`,
    );
  }
}

/** Trimmed, blank ones dropped, duplicates removed (first spelling kept). */
function checkTags(tags: readonly string[]): string[] {
  const result: string[] = [];
  for (const tag of tags.map((item) => item.trim()).filter((item) => item !== '')) {
    if (tag.length > MAX_PROMPT_TAG_CHARS || /[,\r\n]/.test(tag)) {
      throw invalid(
        `Tag "${tag}" is not valid: one word or phrase, at most ${MAX_PROMPT_TAG_CHARS} characters, no commas.`,
      );
    }
    if (!result.includes(tag)) result.push(tag);
  }
  if (result.length > MAX_PROMPT_TAGS)
    throw invalid(`A prompt may have at most ${MAX_PROMPT_TAGS} tags.`);
  return result;
}

function withVariables(template: PromptTemplate): PromptTemplateWithVariables {
  return { ...template, variables: templateVariables(template.body) };
}

export class PromptsService {
  constructor(
    private readonly store: PromptTemplateStore,
    private readonly ids: IdGenerator,
  ) {}

  /** Most recently changed first. */
  list(): PromptTemplateWithVariables[] {
    return this.store.listPromptTemplates().map(withVariables);
  }

  /** The template, or a `not-found` error. */
  get(id: string): PromptTemplateWithVariables {
    const template = this.store.getPromptTemplate(id);
    if (template === null) throw new AivoryError('not-found', `No prompt template with id ${id}.`);
    return withVariables(template);
  }

  /** Validates and stores a new template under a fresh `prompt_…` id. */
  create(input: PromptTemplateInput): PromptTemplateWithVariables {
    const title = checkTitle(input.title);
    checkBody(input.body);
    const tags = checkTags(input.tags ?? []);
    const id = this.ids.next('prompt');
    return withVariables(this.store.createPromptTemplate({ id, title, body: input.body, tags }));
  }

  /** Validates and applies the given fields; an unknown id is a `not-found` error. */
  update(id: string, changes: Partial<PromptTemplateInput>): PromptTemplateWithVariables {
    this.get(id);
    if (changes.body !== undefined) checkBody(changes.body);
    return withVariables(
      this.store.updatePromptTemplate(id, {
        ...(changes.title === undefined ? {} : { title: checkTitle(changes.title) }),
        ...(changes.body === undefined ? {} : { body: changes.body }),
        ...(changes.tags === undefined ? {} : { tags: checkTags(changes.tags) }),
      }),
    );
  }

  /** Deletes the template; an unknown id is a `not-found` error. */
  remove(id: string): void {
    if (!this.store.deletePromptTemplate(id)) {
      throw new AivoryError('not-found', `No prompt template with id ${id}.`);
    }
  }
}
