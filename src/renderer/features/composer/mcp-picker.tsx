/**
 * MCP prompts and resources in the composer: pick an enabled service, then one of its prompts
 * (filling its arguments; the text is inserted for the user to edit and send), resources or
 * resource templates (filling their variables; the resource is read in main and attached to the
 * message as files, a chip naming the service). Only what the user picks reaches the message:
 * nothing from the server is sent on its own.
 */
import type { ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { Popover } from '../../components/popover';
import { useT } from '../../i18n/use-t';
import type { PendingAttachment } from '../../state/attachment-rules';
import { useApp } from '../../state/store';
import { McpIcon } from '../../components/icons';
import { expandTemplate, templateVariables } from './uri-template';
import { McpArgumentInput } from './mcp-argument-input';
import type { Completer } from './mcp-argument-input';

type Service = InvokeResponse<'mcp.list'>['services'][number];
type Library = InvokeResponse<'mcp.library'>;
type McpPrompt = Library['prompts'][number];
type McpTemplate = Library['templates'][number];
type CompletionRef = { type: 'prompt'; name: string } | { type: 'resource'; uri: string };
/** Asks the service for suggestions for `argument` given the other arguments' values. */
type ArgumentCompleter = (
  ref: CompletionRef,
  argument: string,
  value: string,
  context: Record<string, string>,
) => Promise<string[]>;

/** A template's form: its variables as required arguments, expanded into a resource URI. */
interface TemplateForm {
  template: McpTemplate;
  asPrompt: McpPrompt;
}

function templateForm(template: McpTemplate): TemplateForm | null {
  const names = templateVariables(template.uriTemplate);
  if (names === null) return null;
  return {
    template,
    asPrompt: {
      name: template.name,
      description: template.description,
      arguments: names.map((name) => ({ name, description: '', required: true })),
    },
  };
}

/**
 * The "MCP" button of the composer; `onInsert` gets a prompt's text, `onAttach` a resource's files
 * (false when the composer refused them: the list stays open).
 */
export function McpPicker(props: {
  onInsert(text: string): void;
  onAttach(files: Omit<PendingAttachment, 'id'>[]): boolean;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [open, setOpen] = useState(false);
  const [services, setServices] = useState<Service[] | null>(null);
  const [service, setService] = useState<Service | null>(null);
  const [library, setLibrary] = useState<Library | null>(null);
  const [prompt, setPrompt] = useState<McpPrompt | null>(null);
  const [template, setTemplate] = useState<TemplateForm | null>(null);
  useEffect(() => {
    if (!open || !bridge) return undefined;
    let current = true;
    bridge.invoke('mcp.list').then((list) => {
      if (current) setServices(list.services.filter((entry) => entry.enabled));
    }, showError);
    return () => {
      current = false;
    };
  }, [open, bridge, showError]);
  // A server announcing changed prompts or resources reloads the open list.
  const [generation, setGeneration] = useState(0);
  useEffect(
    () =>
      service && bridge
        ? bridge.onEvent('mcp.libraryChanged', ({ serviceId }) => {
            if (serviceId === service.id) setGeneration((value) => value + 1);
          })
        : undefined,
    [service, bridge],
  );
  useEffect(() => {
    if (!service || !bridge) return undefined;
    let current = true;
    bridge.invoke('mcp.library', { id: service.id }).then((found) => {
      if (current) setLibrary(found);
    }, showError);
    return () => {
      current = false;
    };
  }, [service, bridge, showError, generation]);
  useEffect(() => setLibrary(null), [service]);
  const onOpenChange = useCallback((next: boolean) => {
    setOpen(next);
    setService(null);
    setPrompt(null);
    setTemplate(null);
  }, []);
  const insert = (text: string): void => {
    props.onInsert(text);
    onOpenChange(false);
  };
  const fetchPrompt = (chosen: McpPrompt, args: Record<string, string>): void => {
    if (!bridge || !service) return;
    bridge
      .invoke('mcp.getPrompt', { id: service.id, name: chosen.name, arguments: args })
      .then((answer) => insert(answer.text), showError);
  };
  const complete = useMemo<ArgumentCompleter | undefined>(() => {
    if (!bridge || !service || library?.completions !== true) return undefined;
    return (ref, argument, value, context) =>
      bridge
        .invoke('mcp.complete', {
          id: service.id,
          ref,
          argument: { name: argument, value },
          context,
        })
        .then((answer) => answer.values);
  }, [bridge, service, library]);
  const fetchResource = (uri: string): void => {
    if (!bridge || !service) return;
    bridge.invoke('mcp.attachResource', { id: service.id, uri }).then((answer) => {
      const files = answer.files.map((file) => ({ ...file, source: answer.service }));
      if (props.onAttach(files)) onOpenChange(false);
    }, showError);
  };
  return (
    <Popover
      label={t('mcpPicker.open')}
      icon={<McpIcon />}
      testId="mcp-picker-open"
      open={open}
      onOpenChange={onOpenChange}
    >
      <div className="popover-title">{t('mcpPicker.title')}</div>
      {service !== null && prompt === null && template === null && (
        <p className="popover-hint">{t('mcpPicker.attachHint')}</p>
      )}
      <McpPickerBody
        service={service}
        services={services}
        library={library}
        prompt={prompt}
        template={template}
        onService={setService}
        onPrompt={setPrompt}
        onTemplate={setTemplate}
        fetchPrompt={fetchPrompt}
        fetchResource={fetchResource}
        complete={complete}
      />
    </Popover>
  );
}

/** Which step the picker is at: services, then a service's library, then prompt arguments. */
function McpPickerBody(props: {
  service: Service | null;
  services: Service[] | null;
  library: Library | null;
  prompt: McpPrompt | null;
  template: TemplateForm | null;
  onService(service: Service | null): void;
  onPrompt(prompt: McpPrompt | null): void;
  onTemplate(template: TemplateForm | null): void;
  fetchPrompt(prompt: McpPrompt, args: Record<string, string>): void;
  fetchResource(uri: string): void;
  complete: ArgumentCompleter | undefined;
}): ReactNode {
  const { service, prompt, template } = props;
  if (service === null) return <ServiceList services={props.services} onPick={props.onService} />;
  if (template !== null) {
    return (
      <PromptArguments
        prompt={template.asPrompt}
        attach
        completion={{ type: 'resource', uri: template.template.uriTemplate }}
        complete={props.complete}
        onBack={() => props.onTemplate(null)}
        onInsert={(values) =>
          props.fetchResource(expandTemplate(template.template.uriTemplate, values))
        }
      />
    );
  }
  if (prompt !== null) {
    return (
      <PromptArguments
        prompt={prompt}
        completion={{ type: 'prompt', name: prompt.name }}
        complete={props.complete}
        onBack={() => props.onPrompt(null)}
        onInsert={(args) => props.fetchPrompt(prompt, args)}
      />
    );
  }
  return (
    <LibraryList
      library={props.library}
      onBack={() => props.onService(null)}
      onPrompt={(chosen) =>
        chosen.arguments.length === 0 ? props.fetchPrompt(chosen, {}) : props.onPrompt(chosen)
      }
      onResource={props.fetchResource}
      onTemplate={props.onTemplate}
    />
  );
}

function ServiceList(props: {
  services: Service[] | null;
  onPick(service: Service): void;
}): ReactNode {
  const t = useT();
  if (props.services === null) return <p className="popover-hint">{t('tools.loading')}</p>;
  if (props.services.length === 0)
    return <p className="popover-hint">{t('mcpPicker.noServices')}</p>;
  return (
    <ul className="prompt-list">
      {props.services.map((service) => (
        <li key={service.id}>
          <button
            type="button"
            className="prompt-item"
            data-testid="mcp-picker-service"
            onClick={() => props.onPick(service)}
          >
            {service.icon} {service.name}
          </button>
        </li>
      ))}
    </ul>
  );
}

function LibraryList(props: {
  library: Library | null;
  onBack(): void;
  onPrompt(prompt: McpPrompt): void;
  onResource(uri: string): void;
  onTemplate(template: TemplateForm): void;
}): ReactNode {
  const t = useT();
  const { library } = props;
  const empty =
    library !== null &&
    library.prompts.length + library.resources.length + library.templates.length === 0;
  const forms = (library?.templates ?? []).map((template) => ({
    template,
    form: templateForm(template),
  }));
  return (
    <>
      {library === null && <p className="popover-hint">{t('tools.loading')}</p>}
      {empty && <p className="popover-hint">{t('mcpPicker.empty')}</p>}
      {library !== null && library.prompts.length > 0 && (
        <div className="popover-hint">{t('mcpPicker.prompts')}</div>
      )}
      <ul className="prompt-list">
        {(library?.prompts ?? []).map((prompt) => (
          <li key={`prompt:${prompt.name}`}>
            <button
              type="button"
              className="prompt-item"
              data-testid="mcp-picker-prompt"
              title={prompt.description}
              onClick={() => props.onPrompt(prompt)}
            >
              {prompt.name}
            </button>
          </li>
        ))}
      </ul>
      {library !== null && library.resources.length > 0 && (
        <div className="popover-hint">{t('mcpPicker.resources')}</div>
      )}
      <ul className="prompt-list">
        {(library?.resources ?? []).map((resource) => (
          <li key={`resource:${resource.uri}`}>
            <button
              type="button"
              className="prompt-item"
              data-testid="mcp-picker-resource"
              title={resource.uri}
              onClick={() => props.onResource(resource.uri)}
            >
              {resource.name || resource.uri}
            </button>
          </li>
        ))}
      </ul>
      {forms.length > 0 && <div className="popover-hint">{t('mcpPicker.templates')}</div>}
      <ul className="prompt-list">
        {forms.map(({ template, form }) => (
          <li key={`template:${template.uriTemplate}`}>
            <button
              type="button"
              className="prompt-item"
              data-testid="mcp-picker-template"
              title={form === null ? t('mcpPicker.templateUnsupported') : template.uriTemplate}
              disabled={form === null}
              onClick={() => form !== null && props.onTemplate(form)}
            >
              {template.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="popover-actions">
        <button type="button" className="button ghost" onClick={props.onBack}>
          {t('mcpPicker.back')}
        </button>
      </div>
    </>
  );
}

function PromptArguments(props: {
  prompt: McpPrompt;
  /** A template's form: the button attaches the resource. */
  attach?: boolean;
  /** What the server's suggestions are asked for (with `complete`, when it offers them). */
  completion: CompletionRef;
  complete: ArgumentCompleter | undefined;
  onBack(): void;
  onInsert(args: Record<string, string>): void;
}): ReactNode {
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>({});
  // The other arguments' values go with each request (a server may narrow by them); read from
  // a ref so that typing in one field does not ask again for the others.
  const current = useRef(values);
  current.current = values;
  const { complete, completion } = props;
  const refKey = completion.type === 'prompt' ? `prompt:${completion.name}` : completion.uri;
  const completers = useMemo(() => {
    const made = new Map<string, Completer>();
    if (complete === undefined) return made;
    for (const argument of props.prompt.arguments)
      made.set(argument.name, (value) =>
        complete(completion, argument.name, value, filledOf(current.current)),
      );
    return made;
    // `completion` is a fresh object per render: its contents decide (refKey).
  }, [complete, props.prompt, refKey]);
  const missing = props.prompt.arguments.some(
    (argument) => argument.required && (values[argument.name] ?? '').trim() === '',
  );
  const filled = filledOf(values);
  return (
    <div className="prompt-form">
      <div className="popover-hint">{props.prompt.name}</div>
      {props.prompt.arguments.map((argument) => (
        <label key={argument.name} className="prompt-variable" title={argument.description}>
          <span>
            {argument.name}
            {argument.required ? ' *' : ''}
          </span>
          <McpArgumentInput
            name={argument.name}
            value={values[argument.name] ?? ''}
            onChange={(value) => setValues((before) => ({ ...before, [argument.name]: value }))}
            complete={completers.get(argument.name)}
          />
        </label>
      ))}
      <div className="popover-actions">
        <button type="button" className="button ghost" onClick={props.onBack}>
          {t('mcpPicker.back')}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="mcp-picker-insert"
          disabled={missing}
          onClick={() => props.onInsert(filled)}
        >
          {t(props.attach === true ? 'mcpPicker.attach' : 'mcpPicker.insert')}
        </button>
      </div>
    </div>
  );
}

/** Argument values by name. */
type ArgumentValues = Record<string, string>;

/** The arguments the user filled in (empty ones left out). */
function filledOf(values: ArgumentValues): ArgumentValues {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}
