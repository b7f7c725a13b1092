/**
 * 新建 MCP 服务: name, icon, tool description, transport, URL, request headers (secret values),
 * timeouts; a notice for loopback/LAN hosts; a stdio service (only when local command servers are
 * allowed) is added after an explicit confirmation that shows the exact command line.
 */
import { originOf } from '../../../shared/url-origin';
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { InvokeRequest } from '../../../shared/ipc-contract';
import { loaderVariable } from '../../../shared/loader-env';
import type { McpServiceView } from '../../data/mcp';
import { addMcpService, updateMcpService } from '../../data/mcp';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { FieldErrors, SaveState } from '../settings/form-controls';
import { Field, SaveRow } from '../settings/form-controls';
import {
  checkInteger,
  checkRequired,
  checkUrl,
  errorMessage,
  fieldOfError,
  localHostOf,
} from '../settings/form-rules';
import type { Entry } from './entry-rows';
import { EntryRows } from './entry-rows';
import { McpAddedReview } from './mcp-review';
import { useFormErrors } from '../settings/use-form-errors';

type Transport = 'streamable-http' | 'sse' | 'stdio';

const FIELD_ALIASES = {
  name: [],
  icon: [],
  description: [],
  url: ['address', 'redirect', 'refused'],
  headers: ['header'],
  timeoutSeconds: ['timeout'],
  command: ['command'],
  env: ['environment'],
};

/**
 * The new-service form, or with `editing` the same form for an existing service: its saved
 * header / env values are never sent back, so those lists start empty and replace the saved ones
 * only when filled in.
 */
export function McpServiceForm(props: {
  allowLocalCommands: boolean;
  editing?: McpServiceView;
  onDone(): void;
  onCancel(): void;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const editing = props.editing;
  const [name, setName] = useState(editing?.name ?? '');
  const [icon, setIcon] = useState(editing?.icon ?? '🔌');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [transport, setTransport] = useState<Transport>(editing?.transport ?? 'streamable-http');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [added, setAdded] = useState<{ id: string; name: string } | null>(null);
  const [connectAfter, setConnectAfter] = useState(false);
  const [headers, setHeaders] = useState<Entry[]>([]);
  const [keepHeaders, setKeepHeaders] = useState(false);
  const [timeout, setTimeoutText] = useState(
    editing ? String(Math.round(editing.timeoutMs / 1000)) : '60',
  );
  const [command, setCommand] = useState(editing?.command ?? '');
  const [args, setArgs] = useState(editing?.args.join('\n') ?? '');
  const [env, setEnv] = useState<Entry[]>([]);
  const [confirming, setConfirming] = useState(false);
  // Loader variables (NODE_OPTIONS, LD_PRELOAD…) the user ticked in the confirmation.
  const [allowedLoaders, setAllowedLoaders] = useState<string[]>([]);
  const { errors, setErrors, edited } = useFormErrors();
  const [state, setState] = useState<SaveState>('idle');
  const stdio = transport === 'stdio';
  const argList = args
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const commandLine = [command.trim(), ...argList].join(' ');
  const localHost = stdio ? null : localHostOf(url);
  // Saved headers (keys, tokens) are for the server they were saved with: a URL on another
  // origin drops them unless new ones are entered or the user keeps them on purpose.
  const headersWouldMove =
    editing !== undefined &&
    !stdio &&
    editing.headers.length > 0 &&
    headers.every((entry) => entry.name.trim() === '') &&
    originOf(url.trim()) !== originOf(editing.url ?? '');

  const check = (): FieldErrors => ({
    name: checkRequired(name),
    icon: checkRequired(icon),
    description: checkRequired(description),
    url: stdio ? null : checkUrl(url, true),
    command: stdio ? checkRequired(command) : null,
    timeoutSeconds: checkInteger(timeout, 1, 3600),
  });
  const request = (): InvokeRequest<'mcp.add'> => {
    const filled = (entries: Entry[]) => entries.filter((entry) => entry.name.trim() !== '');
    const common = {
      name: name.trim(),
      icon: icon.trim(),
      description: description.trim(),
      transport,
      timeoutSeconds: Number(timeout),
    };
    if (stdio) {
      return {
        ...common,
        command: command.trim(),
        args: argList,
        ...(editing && filled(env).length === 0 ? {} : { env: filled(env) }),
        ...(loaders.length > 0
          ? { allowLoaderEnv: loaders.filter((name) => allowedLoaders.includes(name)) }
          : {}),
        confirmCommand: true,
      };
    }
    const given = filled(headers);
    return {
      ...common,
      url: url.trim(),
      ...(editing && given.length === 0 ? {} : { headers: given }),
      ...(headersWouldMove && keepHeaders ? { keepHeaders: true } : {}),
    };
  };
  const newEnv = env.filter((entry) => entry.name.trim() !== '');
  const loaders = [
    ...new Set(
      newEnv.map((entry) => entry.name.trim()).filter((name) => loaderVariable(name) !== null),
    ),
  ];
  // What will run: the variables set for it, then the command line.
  const runLine = [
    ...newEnv.map((entry) => `${entry.name.trim()}=${entry.value}`),
    commandLine,
  ].join(' ');
  const commandChanged =
    editing === undefined ||
    editing.transport !== 'stdio' ||
    command.trim() !== (editing.command ?? '') ||
    argList.join('\n') !== editing.args.join('\n') ||
    newEnv.length > 0;
  const submit = async (confirmed: boolean, connect = connectAfter): Promise<void> => {
    setConnectAfter(connect);
    const problems = check();
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !bridge) return;
    if (stdio && commandChanged && !confirmed) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setState('saving');
    try {
      if (editing) {
        await updateMcpService(bridge, { ...request(), id: editing.id });
        setState('saved');
        props.onDone();
        return;
      }
      const { service } = await addMcpService(bridge, request());
      setState('saved');
      // "Save and connect": tested, synced and reviewed here, then accepted and switched on in
      // one click. "Save": the card waits for those steps.
      if (connect) setAdded({ id: service.id, name: service.name });
      else props.onDone();
    } catch (error) {
      const message = errorMessage(error);
      const field = message.includes('loader variable')
        ? 'env'
        : fieldOfError(message, FIELD_ALIASES);
      if (field === null) setState({ failed: message });
      else {
        setErrors({ ...problems, [field]: message });
        setState('idle');
      }
    }
  };

  if (added !== null) return <McpAddedReview service={added} onDone={props.onDone} />;
  return (
    <div className="editor mcp-form" data-testid="mcp-form">
      <h3>{editing ? t('mcp.form.editTitle', { name: editing.name }) : t('mcp.form.title')}</h3>
      <div className="row-fields">
        <Field label="mcp.form.icon" testId="mcp-form-icon" error={errors.icon}>
          <input
            className="icon-input"
            data-testid="mcp-form-icon"
            value={icon}
            onChange={(e) => edited('icon', setIcon)(e.target.value)}
          />
        </Field>
        <Field label="mcp.form.name" testId="mcp-form-name" error={errors.name}>
          <input
            data-testid="mcp-form-name"
            value={name}
            placeholder="12306"
            onChange={(e) => edited('name', setName)(e.target.value)}
          />
        </Field>
      </div>
      <Field label="mcp.form.description" testId="mcp-form-description" error={errors.description}>
        <textarea
          data-testid="mcp-form-description"
          rows={2}
          value={description}
          onChange={(e) => edited('description', setDescription)(e.target.value)}
        />
      </Field>
      <Field label="mcp.form.transport" testId="mcp-form-transport">
        <select
          data-testid="mcp-form-transport"
          value={transport}
          onChange={(e) => setTransport(e.target.value as Transport)}
        >
          <option value="streamable-http">{t('mcp.form.streamableHttp')}</option>
          <option value="sse">{t('mcp.form.sse')}</option>
          {props.allowLocalCommands && <option value="stdio">{t('mcp.form.stdio')}</option>}
        </select>
      </Field>
      {stdio ? (
        <>
          <Field label="mcp.form.command" testId="mcp-form-command" error={errors.command}>
            <input
              data-testid="mcp-form-command"
              value={command}
              placeholder="npx"
              onChange={(e) => edited('command', setCommand)(e.target.value)}
            />
          </Field>
          <Field label="mcp.form.args" testId="mcp-form-args">
            <textarea
              data-testid="mcp-form-args"
              rows={3}
              value={args}
              onChange={(e) => setArgs(e.target.value)}
            />
          </Field>
          <EntryRows kind="env" entries={env} error={errors.env} onChange={edited('env', setEnv)} />
        </>
      ) : (
        <>
          <Field label="mcp.form.url" testId="mcp-form-url" error={errors.url}>
            <input
              data-testid="mcp-form-url"
              value={url}
              placeholder="https://mcp.example.com/mcp"
              onChange={(e) => edited('url', setUrl)(e.target.value)}
            />
          </Field>
          {localHost && (
            <p className="notice" data-testid="mcp-form-local-notice">
              {t('mcp.form.localNotice', { host: localHost })}
            </p>
          )}
          <EntryRows
            kind="header"
            entries={headers}
            error={errors.headers}
            onChange={edited('headers', setHeaders)}
          />
          {editing && editing.headers.length > 0 && !headersWouldMove && (
            <p className="muted" data-testid="mcp-form-headers-kept">
              {t('mcp.form.headersKept', {
                names: editing.headers.map((header) => header.name).join(', '),
              })}
            </p>
          )}
          {headersWouldMove && editing && (
            <label className="inline" data-testid="mcp-form-headers-move">
              <input
                type="checkbox"
                data-testid="mcp-form-keep-headers"
                checked={keepHeaders}
                onChange={(e) => setKeepHeaders(e.target.checked)}
              />
              <span>
                {t('mcp.form.keepHeaders', {
                  names: editing.headers.map((header) => header.name).join(', '),
                  origin: originOf(url.trim()),
                })}
              </span>
            </label>
          )}
        </>
      )}
      <Field label="mcp.form.timeout" testId="mcp-form-timeout" error={errors.timeoutSeconds}>
        <input
          data-testid="mcp-form-timeout"
          inputMode="numeric"
          value={timeout}
          onChange={(e) => edited('timeoutSeconds', setTimeoutText)(e.target.value)}
        />
      </Field>
      {confirming && (
        <div className="confirm-box" role="alertdialog" data-testid="mcp-stdio-confirm">
          <strong>{t('mcp.form.confirmTitle')}</strong>
          <p>{t('mcp.form.confirmBody')}</p>
          <pre data-testid="mcp-stdio-command">{runLine}</pre>
          {loaders.map((name) => (
            <label key={name} className="inline notice" data-testid="mcp-stdio-loader">
              <input
                type="checkbox"
                data-testid={`mcp-stdio-allow-${name}`}
                checked={allowedLoaders.includes(name)}
                onChange={(e) =>
                  setAllowedLoaders(
                    e.target.checked
                      ? [...allowedLoaders, name]
                      : allowedLoaders.filter((other) => other !== name),
                  )
                }
              />
              <span>⚠ {t('mcp.form.loader', { name, what: loaderVariable(name) ?? '' })}</span>
            </label>
          ))}
          <button
            type="button"
            className="button danger"
            data-testid="mcp-stdio-confirm-yes"
            onClick={() => void submit(true)}
          >
            {t('mcp.form.confirm')}
          </button>
        </div>
      )}
      <SaveRow
        state={state}
        testId="mcp-form-save"
        label="mcp.form.save"
        onSave={() => void submit(false, false)}
      >
        {!editing && (
          <button
            type="button"
            className="button"
            data-testid="mcp-form-save-connect"
            disabled={state === 'saving'}
            onClick={() => void submit(false, true)}
          >
            {t('mcp.form.saveConnect')}
          </button>
        )}
        <button type="button" className="button ghost" onClick={props.onCancel}>
          {t('form.cancel')}
        </button>
      </SaveRow>
    </div>
  );
}
