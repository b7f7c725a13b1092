/**
 * The settings groups of "capabilities & integrations → tools" as data: which fields each block
 * has, their kind, limits (the same as the settings service's schemas) and labels. The group form
 * renders, checks and saves any of them.
 */
import type { InvokeRequest, InvokeResponse } from '../../../shared/ipc-contract';
import type { MessageKey } from '../../i18n/i18n';
import type { FieldErrors } from './form-controls';
import type { FieldProblem } from './form-rules';
import { checkInteger, checkRequired, checkUrl } from './form-rules';

/** The settings view the host returns. */
export type SettingsView = InvokeResponse<'settings.get'>;
/** A group edited by a group form. */
export type GroupKey = 'search' | 'sandbox' | 'images' | 'web';
/** A form's values as typed (numbers stay text until saved). */
export type Draft = Record<string, string | boolean>;

/** One field of a group. */
export type FieldSpec =
  | {
      kind: 'select';
      name: string;
      label: MessageKey;
      options: readonly { value: string; label: MessageKey }[];
    }
  | {
      kind: 'text';
      name: string;
      label: MessageKey;
      hint?: MessageKey;
      url?: boolean;
      required?: boolean;
      placeholder?: string;
    }
  | { kind: 'integer'; name: string; label: MessageKey; min: number; max: number }
  | { kind: 'switch'; name: string; label: MessageKey };

/** One block of the tools page. */
export interface GroupSpec {
  key: GroupKey;
  title: MessageKey;
  fields: readonly FieldSpec[];
  /** The label of the group's key (kept in the secret store), or null when it has none. */
  secret: MessageKey | null;
}

/** 联网搜索. */
export const SEARCH_GROUP: GroupSpec = {
  key: 'search',
  title: 'set.search.title',
  secret: 'set.search.keyTitle',
  fields: [
    {
      kind: 'select',
      name: 'provider',
      label: 'set.search.provider',
      options: [
        { value: 'disabled', label: 'set.search.disabled' },
        { value: 'searxng', label: 'set.search.searxng' },
        { value: 'serper', label: 'set.search.serper' },
        { value: 'brave', label: 'set.search.brave' },
      ],
    },
    {
      kind: 'text',
      name: 'baseUrl',
      label: 'set.search.baseUrl',
      url: true,
      placeholder: 'https://searx.example.com',
    },
    { kind: 'text', name: 'engines', label: 'set.search.engines', hint: 'set.search.enginesHint' },
  ],
};

/** 代码沙箱 (the seed's ranges: 10–600 s, 60–86400 s). */
export const SANDBOX_GROUP: GroupSpec = {
  key: 'sandbox',
  title: 'set.sandbox.title',
  secret: 'set.sandbox.keyTitle',
  fields: [
    {
      kind: 'text',
      name: 'baseUrl',
      label: 'set.sandbox.baseUrl',
      hint: 'set.sandbox.baseUrlHint',
      url: true,
      placeholder: 'https://sandbox.example.com:48217',
    },
    {
      kind: 'integer',
      name: 'execTimeoutSeconds',
      label: 'set.sandbox.execTimeout',
      min: 10,
      max: 600,
    },
    {
      kind: 'integer',
      name: 'idleReapSeconds',
      label: 'set.sandbox.idleReap',
      min: 60,
      max: 86_400,
    },
    // The host also refuses more than the machine's memory (os.totalmem()).
    { kind: 'integer', name: 'memoryMiB', label: 'set.sandbox.memory', min: 512, max: 1_048_576 },
    {
      kind: 'select',
      name: 'runtime',
      label: 'set.sandbox.runtime',
      options: [
        { value: 'auto', label: 'set.sandbox.runtimeAuto' },
        { value: 'runc', label: 'set.sandbox.runtimeRunc' },
        { value: 'runsc', label: 'set.sandbox.runtimeRunsc' },
      ],
    },
  ],
};

/** 图像生成. */
export const IMAGES_GROUP: GroupSpec = {
  key: 'images',
  title: 'set.images.title',
  secret: 'set.images.keyTitle',
  fields: [
    {
      kind: 'select',
      name: 'provider',
      label: 'set.images.provider',
      options: [
        { value: 'disabled', label: 'set.images.disabled' },
        { value: 'openai', label: 'set.images.openai' },
      ],
    },
    { kind: 'text', name: 'baseUrl', label: 'set.images.baseUrl', url: true, required: true },
    { kind: 'text', name: 'model', label: 'set.images.model', required: true },
  ],
};

/** web_fetch / fetch_image limits. */
export const WEB_GROUP: GroupSpec = {
  key: 'web',
  title: 'set.web.title',
  secret: null,
  fields: [
    { kind: 'integer', name: 'maxBodyMegabytes', label: 'set.web.maxBody', min: 1, max: 50 },
    { kind: 'integer', name: 'deadlineSeconds', label: 'set.web.deadline', min: 5, max: 120 },
    { kind: 'switch', name: 'refuseNonDefaultPorts', label: 'set.web.refusePorts' },
  ],
};

/** The form's starting values from the saved group. */
export function draftOf(spec: GroupSpec, view: SettingsView): Draft {
  const saved = view[spec.key] as Record<string, unknown>;
  const draft: Draft = {};
  for (const field of spec.fields) {
    const value = saved[field.name];
    draft[field.name] = field.kind === 'switch' ? value === true : String(value ?? '');
  }
  return draft;
}

/** Problems of the draft by field (empty when it may be sent). */
export function checkDraft(spec: GroupSpec, draft: Draft): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of spec.fields) {
    const value = draft[field.name];
    if (typeof value !== 'string') continue;
    let problem: FieldProblem | null = null;
    if (field.kind === 'integer') problem = checkInteger(value, field.min, field.max);
    if (field.kind === 'text' && field.url) problem = checkUrl(value, field.required);
    else if (field.kind === 'text' && field.required) problem = checkRequired(value);
    if (problem) errors[field.name] = problem;
  }
  return errors;
}

/** The `settings.set` request of a checked draft. */
export function patchOf(spec: GroupSpec, draft: Draft): InvokeRequest<'settings.set'> {
  const values: Record<string, string | number | boolean> = {};
  for (const field of spec.fields) {
    const value = draft[field.name];
    if (value === undefined) continue;
    values[field.name] =
      field.kind === 'integer' ? Number(value) : typeof value === 'string' ? value.trim() : value;
  }
  // The host validates the values against the group's schema; the spec mirrors it.
  return { key: spec.key, values } as InvokeRequest<'settings.set'>;
}
