/**
 * MCP prompts and resources in the composer: pick an enabled service, then one of its prompts
 * (filling its arguments; the text is inserted for the user to edit and send), resources or
 * resource templates (filling their variables; the resource is read in main and attached to the
 * message as files, a chip naming the service). Only what the user picks reaches the message:
 * nothing from the server is sent on its own. The services and a service's library are the shared
 * queries (`['mcp', 'list']`, `['mcp', 'library', id]`), asked only while the picker is open; a
 * server announcing changed prompts or resources (`mcp.libraryChanged`) reloads the open list.
 */
import type { ReactNode } from 'react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Popover } from '../../components/popover';
import type { McpLibrary, McpServiceView } from '../../data/mcp';
import {
  attachMcpResource,
  completeMcpArgument,
  getMcpPrompt,
  listMcpServices,
  mcpLibrary,
  mcpLibraryKey,
  MCP_SERVICES_KEY,
} from '../../data/mcp';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import type { PendingAttachment } from '../../state/attachment-rules';
import { useApp } from '../../state/store';
import { McpIcon } from '../../components/icons';
import { expandTemplate, templateVariables } from './uri-template';
import { McpArgumentInput } from './mcp-argument-input';
import type { Completer } from './mcp-argument-input';

type Service = McpServiceView;
type Library = McpLibrary;
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
  const [service, setService] = useState<Service | null>(null);
  const [prompt, setPrompt] = useState<McpPrompt | null>(null);
  const [template, setTemplate] = useState<TemplateForm | null>(null);
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
    getMcpPrompt(bridge, { id: service.id, name: chosen.name, arguments: args }).then(
      insert,
      showError,
    );
  };
  const fetchResource = (uri: string): void => {
    if (!bridge || !service) return;
    attachMcpResource(bridge, service.id, uri).then((answer) => {
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
        prompt={prompt}
        template={template}
        onService={setService}
        onPrompt={setPrompt}
        onTemplate={setTemplate}
        fetchPrompt={fetchPrompt}
        fetchResource={fetchResource}
      />
    </Popover>
  );
}

/** The picker's steps (mounted while it is open). */
interface BodyProps {
  service: Service | null;
  prompt: McpPrompt | null;
  template: TemplateForm | null;
  onService(service: Service | null): void;
  onPrompt(prompt: McpPrompt | null): void;
  onTemplate(template: TemplateForm | null): void;
  fetchPrompt(prompt: McpPrompt, args: Record<string, string>): void;
  fetchResource(uri: string): void;
}

/** Which step the picker is at: services, then a service's library, then prompt arguments. */
function McpPickerBody(props: BodyProps): ReactNode {
  const { service } = props;
  if (service === null) return <ServiceList onPick={props.onService} />;
  return <ServiceLibrary {...props} service={service} />;
}

/** A chosen service: its library (read while shown), then a prompt's or template's arguments. */
function ServiceLibrary(props: BodyProps & { service: Service }): ReactNode {
  const bridge = useApp((state) => state.bridge);
  const { service, prompt, template } = props;
  const library = useQuery(mcpLibraryKey(service.id), (b) => mcpLibrary(b, service.id)).data;
  const completions = library?.completions === true;
  const complete = useMemo<ArgumentCompleter | undefined>(() => {
    if (!bridge || !completions) return undefined;
    return (ref, argument, value, context) =>
      completeMcpArgument(bridge, {
        id: service.id,
        ref,
        argument: { name: argument, value },
        context,
      });
  }, [bridge, service.id, completions]);
  if (template !== null) {
    return (
      <PromptArguments
        prompt={template.asPrompt}
        attach
        completion={{ type: 'resource', uri: template.template.uriTemplate }}
        complete={complete}
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
        complete={complete}
        onBack={() => props.onPrompt(null)}
        onInsert={(args) => props.fetchPrompt(prompt, args)}
      />
    );
  }
  return (
    <LibraryList
      library={library}
      onBack={() => props.onService(null)}
      onPrompt={(chosen) =>
        chosen.arguments.length === 0 ? props.fetchPrompt(chosen, {}) : props.onPrompt(chosen)
      }
      onResource={props.fetchResource}
      onTemplate={props.onTemplate}
    />
  );
}

/** The enabled services (the shared list, asked again each time the picker opens). */
function ServiceList(props: { onPick(service: Service): void }): ReactNode {
  const t = useT();
  const list = useQuery(MCP_SERVICES_KEY, listMcpServices).data;
  const services = list?.services.filter((entry) => entry.enabled) ?? null;
  if (services === null) return <p className="popover-hint">{t('tools.loading')}</p>;
  if (services.length === 0) return <p className="popover-hint">{t('mcpPicker.noServices')}</p>;
  return (
    <ul className="prompt-list">
      {services.map((service) => (
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
