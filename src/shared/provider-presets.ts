/**
 * Model providers the setup screen and the model editor offer by name: each preset is an
 * OpenAI-compatible base URL, whether it needs a key, where keys are made and the tool mode to
 * start with. Every provider is reached through the OpenAI SDK, so every key travels the same way:
 * an `Authorization: Bearer <key>` header, to that base URL's origin only. "Custom" is any other
 * OpenAI-compatible server.
 *
 * Also the shape of a listed model (`GET /models`) with the capabilities its provider states.
 */

/**
 * Context window assumed for a model nobody told us about (flags, environment, a new model in the
 * editor): one figure for the host and the renderer.
 */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/** How a preset is grouped in the picker. */
export type ProviderKind = 'cloud' | 'local' | 'custom';

/** One provider preset. */
export interface ProviderPreset {
  /** Stable id (also the `data-preset` of the UI and the preset's i18n key suffix). */
  id: string;
  /** The provider's own name, the same in every language (the UI translates Custom's). */
  name: string;
  kind: ProviderKind;
  /** The OpenAI-compatible base URL; empty for "Custom". */
  baseUrl: string;
  /** Whether the provider refuses requests without a key. */
  needsKey: boolean;
  /** Where the user creates a key (opened outside the app); null when there is nothing to make. */
  keyUrl: string | null;
  /** The tool mode a new model of this provider starts with (editable). */
  toolMode: 'native' | 'prompt';
}

/** The id of the "any OpenAI-compatible server" entry. */
export const CUSTOM_PRESET_ID = 'custom';

/**
 * The presets, cloud providers first, then local servers on their default ports, then Custom.
 * Local servers start in prompt mode where native tool calls need extra server flags
 * (llama.cpp `--jinja`, vLLM `--enable-auto-tool-choice`), so a first turn with tools works.
 */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    kind: 'cloud',
    baseUrl: 'https://api.openai.com/v1',
    needsKey: true,
    keyUrl: 'https://platform.openai.com/api-keys',
    toolMode: 'native',
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    kind: 'cloud',
    baseUrl: 'https://api.anthropic.com/v1/',
    needsKey: true,
    keyUrl: 'https://console.anthropic.com/settings/keys',
    toolMode: 'native',
  },
  {
    id: 'google',
    name: 'Google Gemini',
    kind: 'cloud',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    needsKey: true,
    keyUrl: 'https://aistudio.google.com/apikey',
    toolMode: 'native',
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    kind: 'cloud',
    baseUrl: 'https://api.deepseek.com/v1',
    needsKey: true,
    keyUrl: 'https://platform.deepseek.com/api_keys',
    toolMode: 'native',
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    kind: 'cloud',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    keyUrl: 'https://openrouter.ai/keys',
    toolMode: 'native',
  },
  {
    id: 'groq',
    name: 'Groq',
    kind: 'cloud',
    baseUrl: 'https://api.groq.com/openai/v1',
    needsKey: true,
    keyUrl: 'https://console.groq.com/keys',
    toolMode: 'native',
  },
  {
    id: 'mistral',
    name: 'Mistral',
    kind: 'cloud',
    baseUrl: 'https://api.mistral.ai/v1',
    needsKey: true,
    keyUrl: 'https://console.mistral.ai/api-keys',
    toolMode: 'native',
  },
  {
    id: 'siliconflow',
    name: 'SiliconFlow',
    kind: 'cloud',
    baseUrl: 'https://api.siliconflow.cn/v1',
    needsKey: true,
    keyUrl: 'https://cloud.siliconflow.cn/account/ak',
    toolMode: 'native',
  },
  {
    id: 'moonshot',
    name: 'Moonshot (Kimi)',
    kind: 'cloud',
    baseUrl: 'https://api.moonshot.cn/v1',
    needsKey: true,
    keyUrl: 'https://platform.moonshot.cn/console/api-keys',
    toolMode: 'native',
  },
  {
    id: 'zhipu',
    name: 'Zhipu (GLM)',
    kind: 'cloud',
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    needsKey: true,
    keyUrl: 'https://open.bigmodel.cn/usercenter/apikeys',
    toolMode: 'native',
  },
  {
    id: 'dashscope',
    name: 'Qwen (DashScope)',
    kind: 'cloud',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    needsKey: true,
    keyUrl: 'https://bailian.console.aliyun.com/?apiKey=1',
    toolMode: 'native',
  },
  {
    id: 'ollama',
    name: 'Ollama',
    kind: 'local',
    baseUrl: 'http://127.0.0.1:11434/v1',
    needsKey: false,
    keyUrl: null,
    toolMode: 'native',
  },
  {
    id: 'lmstudio',
    name: 'LM Studio',
    kind: 'local',
    baseUrl: 'http://127.0.0.1:1234/v1',
    needsKey: false,
    keyUrl: null,
    toolMode: 'native',
  },
  {
    id: 'llamacpp',
    name: 'llama.cpp',
    kind: 'local',
    baseUrl: 'http://127.0.0.1:8080/v1',
    needsKey: false,
    keyUrl: null,
    toolMode: 'prompt',
  },
  {
    id: 'vllm',
    name: 'vLLM',
    kind: 'local',
    baseUrl: 'http://127.0.0.1:8000/v1',
    needsKey: false,
    keyUrl: null,
    toolMode: 'prompt',
  },
  {
    id: 'jan',
    name: 'Jan',
    kind: 'local',
    baseUrl: 'http://127.0.0.1:1337/v1',
    needsKey: false,
    keyUrl: null,
    toolMode: 'prompt',
  },
  {
    id: CUSTOM_PRESET_ID,
    name: 'Custom',
    kind: 'custom',
    baseUrl: '',
    needsKey: false,
    keyUrl: null,
    toolMode: 'native',
  },
];

/** The preset with this id; Custom for an unknown one. */
export function presetById(id: string): ProviderPreset {
  return (
    PROVIDER_PRESETS.find((preset) => preset.id === id) ??
    (PROVIDER_PRESETS.find((preset) => preset.id === CUSTOM_PRESET_ID) as ProviderPreset)
  );
}

/**
 * The preset whose base URL this is (same origin and path, ignoring a trailing slash and the
 * case of scheme and host), or Custom. `localhost` and `127.0.0.1` count as the same host.
 */
export function presetForBaseUrl(baseUrl: string): ProviderPreset {
  const wanted = normalisedBaseUrl(baseUrl);
  return (
    PROVIDER_PRESETS.find(
      (preset) => preset.baseUrl !== '' && normalisedBaseUrl(preset.baseUrl) === wanted,
    ) ?? presetById(CUSTOM_PRESET_ID)
  );
}

function normalisedBaseUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
    return `${url.protocol}//${host}:${url.port}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/**
 * A model as a server lists it, with what its provider states about it: true / false when the
 * listing says so (OpenRouter's `architecture.input_modalities` and `supported_parameters`,
 * Mistral's `capabilities`), null when it says nothing.
 */
export interface ListedModel {
  id: string;
  /** Takes images as input. */
  vision: boolean | null;
  /** Native function calling. */
  tools: boolean | null;
  /** A reasoning ("thinking") model. */
  reasoning: boolean | null;
}
