/**
 * One message: the user's text, or the assistant's parts as text, reasoning, tool trace cards and
 * files, with the budget meter and the stop reason in plain words under it.
 */
import type { ReactNode } from 'react';
import { Fragment, useRef, useState } from 'react';
import { Markdown } from '../../components/markdown';
import type { MessagePart, MessageStatus, TurnMode } from '../../../shared/dto';
import type {
  BudgetUpdateEvent,
  PublicError,
  TaintReason,
  TokenUsage,
} from '../../../shared/turn-events';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { TurnSummary } from '../../state/app-state';
import { displayItems } from '../../state/trace-items';
import type { ToolProgressView } from '../../state/live-turn';
import type { ShownFile } from '../../state/attachment-rules';
import { FileView } from './file-view';
import { ChevronDownIcon, EditIcon, RegenerateIcon, RetryIcon } from '../../components/icons';
import { MenuButton } from '../../components/menu';
import { MessageActions, ToolbarButton } from './message-actions';
import type { VersionSwitch } from './message-versions';
import { QuestionEditor, VersionSwitcher } from './message-versions';
import { TurnElicitation } from '../elicitation/elicitation-prompt';
import { ToolTraceCard } from './tool-trace-card';
import { ReasoningBlock } from './reasoning-block';
import { BudgetMeter } from './budget-meter';
import { TaintIcon } from './taint-icon';
import { OmittedNote } from '../conversations/omitted-note';
import { messageText } from '../../../shared/message-parts';

/** A stop reason as stored (live reasons plus `interrupted`). */
export type StopReasonShown = TurnSummary['stopReason'];

/** An assistant message, stored or live. */
export interface AssistantMessageProps {
  parts: readonly MessagePart[];
  status: MessageStatus;
  budget: BudgetUpdateEvent | null;
  /** What untrusted content the turn read (live, or as recorded): calls after it ask first. */
  taint?: readonly TaintReason[];
  /** The call whose result tainted the turn: its card is marked. */
  taintedCallId?: string | null;
  /** The live turn's id: an MCP server's question during its running call shows there. */
  turnId?: string;
  /** Live progress of the running calls, by toolCallId (a live turn only). */
  progress?: Readonly<Record<string, ToolProgressView>>;
  stopReason: StopReasonShown | null;
  error: PublicError | null;
  /** Offered under the conversation's last answer when it failed, stopped or came back empty. */
  onRetry?: () => void;
  /** The model that wrote the answer, when known. */
  model?: string | null;
  /** Its saved label (shown, with the model's name as the tooltip), when known. */
  modelLabel?: string | null;
  /** The live turn's latest malformed-call retry (prompt mode), while it runs. */
  protocolRetry?: number | null;
  /** The live turn's model request waiting before it is sent again (a 429, a 503). */
  modelWait?: { waitMs: number; status: number | null } | null;
  /**
   * Writes a new version of this answer (stored answers, no turn running), in `mode` (default: the
   * composer's).
   */
  onRegenerate?: (mode?: TurnMode) => void;
  /** Its place among its versions, when it has others. */
  versions?: VersionSwitch;
  /** Tokens the turn used, when the provider reported them. */
  usage?: TokenUsage | null;
  /** Earlier messages the request left out (context policy or window). */
  omittedMessages?: number;
  /** The stored message's id (`data-message-id`: where a search hit scrolls to). */
  messageId?: string;
}

/** The user's message, as plain text, with the files sent along. */
export function UserMessage(props: {
  text: string;
  files?: readonly ShownFile[];
  /** Deletes this question with its answer (stored messages only). */
  onDelete?: () => void;
  /** Sends an edited version of this question (stored messages, no turn running). */
  onEdit?: (text: string) => void;
  /** Its place among its versions, when it has others. */
  versions?: VersionSwitch;
  /** The stored message's id (`data-message-id`: where a search hit scrolls to). */
  messageId?: string;
}): ReactNode {
  const t = useT();
  const files = props.files ?? [];
  const [editing, setEditing] = useState(false);
  const onEdit = props.onEdit;
  return (
    <div
      className="message message-user"
      data-testid="message-user"
      data-message-id={props.messageId}
    >
      <div className="message-role">{t('chat.you')}</div>
      {editing && onEdit ? (
        <QuestionEditor
          text={props.text}
          onCancel={() => setEditing(false)}
          onSend={(text) => {
            setEditing(false);
            onEdit(text);
          }}
        />
      ) : (
        props.text !== '' && <div className="message-body user-text">{props.text}</div>
      )}
      {files.length > 0 && (
        <div className="message-files">
          {files.map((file, index) => (
            <FileView key={`${index}-${file.name}`} file={file} attached />
          ))}
        </div>
      )}
      {!editing && (props.text !== '' || props.onDelete || props.versions) && (
        <div className="message-footer">
          {props.versions && <VersionSwitcher versions={props.versions} />}
          <MessageActions
            markdown={props.text}
            {...(props.onDelete ? { onDelete: props.onDelete } : {})}
          >
            {onEdit && (
              <ToolbarButton
                label={t('message.edit')}
                tooltip={t('message.editHelp')}
                icon={<EditIcon />}
                testId="message-edit"
                onClick={() => setEditing(true)}
              />
            )}
          </MessageActions>
        </div>
      )}
    </div>
  );
}

/** The assistant message with its traces, meter and stop reason. */
export function AssistantMessage(props: AssistantMessageProps): ReactNode {
  const t = useT();
  const running = props.status === 'streaming';
  const items = displayItems(props.parts, running);
  const body = useRef<HTMLDivElement>(null);
  const markdown = running ? '' : messageText(props.parts).trim();
  const taintSources = (props.taint ?? [])
    .map((item) => (item.detail === null ? item.tool : `${item.tool} ${item.detail}`))
    .join('; ');
  // A server's question shows under the running call (else at the end while the turn runs).
  const questionAt =
    running && props.turnId !== undefined
      ? items.findLastIndex((item) => item.kind === 'tool' && item.trace.status === 'running')
      : -2;
  return (
    <div
      className={`message message-assistant status-${props.status}`}
      data-testid="message-assistant"
      data-status={props.status}
      data-message-id={props.messageId}
    >
      <div className="message-role">{t('chat.assistant')}</div>
      <div className="message-body" ref={body}>
        {items.length === 0 && running && <div className="thinking">{t('chat.thinking')}</div>}
        {running && props.protocolRetry != null && (
          <div className="notice protocol-retry" data-testid="protocol-retry" role="status">
            {t('chat.protocolRetry', { attempt: props.protocolRetry })}
          </div>
        )}
        {running && props.modelWait != null && (
          <div className="notice model-wait" data-testid="model-wait" role="status">
            {t(props.modelWait.status === null ? 'chat.modelWaitNetwork' : 'chat.modelWait', {
              status: props.modelWait.status ?? '',
              seconds: Math.ceil(props.modelWait.waitMs / 1000),
            })}
          </div>
        )}
        {!running && props.status === 'complete' && !items.some(shownToUser) && (
          <div className="notice empty-reply" data-testid="empty-reply">
            {t('chat.emptyReply')}
          </div>
        )}
        {items.map((item, index) => {
          switch (item.kind) {
            case 'text':
              return <Markdown key={index} text={item.text} endOnly />;
            case 'reasoning':
              // While the model is still reasoning (nothing after it yet), its text shows live.
              return (
                <ReasoningBlock
                  key={index}
                  text={item.text}
                  savedMs={item.durationMs}
                  live={running && index === items.length - 1}
                />
              );
            case 'tool':
              return (
                <Fragment key={item.trace.toolCallId}>
                  <ToolTraceCard
                    trace={item.trace}
                    tainted={item.trace.toolCallId === props.taintedCallId}
                    {...(taintSources === '' ? {} : { taintSources })}
                    progress={props.progress?.[item.trace.toolCallId] ?? null}
                  />
                  {index === questionAt && <TurnElicitation turnId={props.turnId ?? ''} />}
                </Fragment>
              );
            case 'file':
              return <FileView key={index} file={item.artifact} attached={item.attached} />;
          }
        })}
        {questionAt === -1 && <TurnElicitation turnId={props.turnId ?? ''} />}
      </div>
      <div className="message-footer">
        {props.versions && <VersionSwitcher versions={props.versions} />}
        {props.model && (
          <span
            className="message-model muted"
            data-testid="message-model"
            title={props.modelLabel ? props.model : undefined}
          >
            {props.modelLabel ?? props.model}
          </span>
        )}
        {props.usage && (
          <span className="message-usage muted" data-testid="message-usage">
            {t('chat.usage', {
              input: props.usage.inputTokens.toLocaleString(),
              output: props.usage.outputTokens.toLocaleString(),
            })}
          </span>
        )}
        {props.budget && <BudgetMeter budget={props.budget} />}
        {taintSources !== '' && <TaintIcon sources={taintSources} />}
        <OmittedNote count={props.omittedMessages} />
        <StopReason reason={props.stopReason} status={props.status} error={props.error} />
        {/* Last, so the answer's facts stay put while the toolbar fades in and out. */}
        {(markdown !== '' || props.onRetry || props.onRegenerate) && (
          <MessageActions markdown={markdown} rendered={body} pinned={props.onRetry !== undefined}>
            {props.onRegenerate && <RegenerateActions onRegenerate={props.onRegenerate} />}
            {props.onRetry && (
              <ToolbarButton
                label={t('chat.retry')}
                tooltip={t('chat.retryHelp')}
                icon={<RetryIcon />}
                text={t('chat.retry')}
                testId="retry-turn"
                onClick={props.onRetry}
              />
            )}
          </MessageActions>
        )}
      </div>
    </div>
  );
}

/**
 * Regenerate (in the composer's mode and model), and a menu to regenerate in a chosen mode or
 * with another saved model (the new version then names the model that wrote it).
 */
function RegenerateActions(props: {
  onRegenerate: (mode?: TurnMode, modelId?: string) => void;
}): ReactNode {
  const t = useT();
  const modes: readonly TurnMode[] = ['fast', 'normal', 'deep'];
  const models = useApp((state) => state.modelChoices).filter(
    (choice): choice is typeof choice & { id: string } => choice.id !== null,
  );
  return (
    <>
      <ToolbarButton
        label={t('message.regenerate')}
        tooltip={t('message.regenerateHelp')}
        icon={<RegenerateIcon />}
        testId="message-regenerate"
        onClick={() => props.onRegenerate()}
      />
      <MenuButton
        label={t('message.regenerateIn')}
        icon={<ChevronDownIcon />}
        testId="message-regenerate-mode"
        className="message-action"
        items={[
          ...modes.map((mode) => ({
            id: mode,
            testId: `message-regenerate-${mode}`,
            label: t('message.regenerateMode', { mode: t(`mode.${mode}`) }),
            onSelect: () => props.onRegenerate(mode),
          })),
          ...models.map((model) => ({
            id: `model-${model.id}`,
            testId: 'message-regenerate-model',
            label: t('message.regenerateWith', { model: model.label }),
            onSelect: () => props.onRegenerate(undefined, model.id),
          })),
        ]}
      />
    </>
  );
}

function StopReason(props: {
  reason: StopReasonShown | null;
  status: MessageStatus;
  error: PublicError | null;
}): ReactNode {
  const t = useT();
  const reason = props.status === 'interrupted' ? 'interrupted' : props.reason;
  if (reason === null || reason === 'completed') return null;
  const message = props.error?.message.trim() ?? '';
  return (
    <span className={`stop-reason stop-${reason}`} data-testid="stop-reason" data-reason={reason}>
      {reason === 'error' && message === ''
        ? t('stop.errorUnknown')
        : t(`stop.${reason}`, { message })}
    </span>
  );
}

/** Whether an item is something the user sees as the answer (visible text, a call, a file). */
function shownToUser(item: ReturnType<typeof displayItems>[number]): boolean {
  return item.kind !== 'text' || item.text.trim() !== '';
}
