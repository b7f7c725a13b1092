/**
 * The composer: a text area (Enter sends, Shift+Enter breaks the line, "/" opens the prompt
 * palette), files (picker, a drop anywhere on the window, or paste, shown as chips with
 * thumbnails), prompt templates, the conversation's tools, the model, the mode, Send or Stop. The host's limits are checked here as text and files arrive (`ComposerDraft`): the
 * text box never holds more than a message may, and a file the host would refuse is never listed.
 */
import type { ReactNode } from 'react';
import { useCallback, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { TurnMode } from '../../../shared/dto';
import { MAX_MESSAGE_CHARS } from '../../../shared/ipc/limits';
import { PaperclipIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { AttachmentChips } from '../composer/attachment-chips';
import { LengthCounter, OversizedTextNotice, RefusalNotice } from '../composer/composer-notices';
import { useComposerDraft } from '../composer/use-composer-draft';
import { ModelPicker } from '../composer/model-picker';
import { ComparePicker } from '../composer/compare-picker';
import { McpPicker } from '../composer/mcp-picker';
import { PromptPicker } from '../composer/prompt-picker';
import { usePromptPalette } from '../composer/prompt-palette';
import { useWindowFileDrop } from '../composer/use-window-drop';
import { ToolToggles } from '../composer/tool-toggles';
import { VisionHint } from '../composer/vision-hint';
import type { Attachments } from '../composer/use-attachments';

const MODES: readonly TurnMode[] = ['fast', 'normal', 'deep'];

/** The message box; Stop replaces Send while `runningTurnId` runs. */
export function Composer(props: { runningTurnId: string | null }): ReactNode {
  const t = useT();
  const box = useRef<HTMLTextAreaElement>(null);
  const draft = useComposerDraft(box);
  const { text, attachments } = draft;
  // Files dropped anywhere on the window come here (`use-window-drop.ts`).
  const { add } = attachments;
  const addDropped = useCallback((files: File[]) => void add(files), [add]);
  const dragging = useWindowFileDrop(addDropped);
  const palette = usePromptPalette(box, text, draft.replaceRange);
  // A starter prompt (the empty chat's cards) lands here, the box focused to go on typing.
  const inserted = useApp((state) => state.composerInsert);
  const clearInserted = useApp((state) => state.clearComposerInsert);
  const { insertAtEnd } = draft;
  useEffect(() => {
    if (inserted === null) return;
    insertAtEnd(inserted.text);
    clearInserted();
    box.current?.focus();
  }, [inserted, insertAtEnd, clearInserted]);
  const send = useApp((state) => state.send);
  const sending = useApp((state) => state.sendingText !== null);
  const busy = sending || props.runningTurnId !== null;
  const empty = text.trim() === '' && attachments.files.length === 0;
  const submit = (): void => {
    if (busy || attachments.reading || empty) return;
    const sentText = text;
    const sentFiles = attachments.files;
    draft.setText('');
    attachments.replace([]);
    void send(sentText, sentFiles).then((sent) => {
      if (sent) return;
      draft.setText((current) => (current === '' ? sentText : current));
      attachments.replace(sentFiles);
    });
  };
  return (
    <form
      className="composer"
      data-testid="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {dragging &&
        createPortal(
          <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
            <div className="drop-overlay-card">
              <PaperclipIcon size={28} />
              <span>{t('composer.dropHint')}</span>
            </div>
          </div>,
          document.body,
        )}
      <AttachmentChips files={attachments.files} onRemove={attachments.remove} />
      <VisionHint files={attachments.files} />
      <div className="composer-notices">
        {draft.oversized !== null && (
          <OversizedTextNotice
            oversized={draft.oversized}
            bytes={draft.oversizedBytes}
            room={draft.room}
            onAttach={draft.attachOversized}
            onInsertPart={draft.insertWhatFits}
            onDismiss={draft.dismissOversized}
          />
        )}
        <RefusalNotice refusals={attachments.refusals} onDismiss={attachments.dismissRefusals} />
      </div>
      <div className="composer-box">
        {palette.panel}
        <textarea
          ref={box}
          className="composer-text"
          data-testid="composer-input"
          value={text}
          maxLength={MAX_MESSAGE_CHARS}
          placeholder={t('composer.placeholder')}
          rows={1}
          {...palette.boxProps}
          onChange={(event) => draft.setText(event.target.value)}
          onPaste={draft.paste}
          onKeyDown={(event) => {
            if (palette.onKeyDown(event)) return;
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
      </div>
      <div className="composer-actions">
        <div className="composer-tools">
          <AttachButton attachments={attachments} />
          <PromptPicker onInsert={draft.insertAtEnd} />
          <McpPicker onInsert={draft.insertAtEnd} onAttach={attachments.attach} />
          <ToolToggles />
          <ModelPicker />
          <ComparePicker />
          <ModePicker />
        </div>
        <div className="composer-send">
          <LengthCounter length={text.length} />
          {props.runningTurnId !== null ? (
            <StopButton turnId={props.runningTurnId} />
          ) : (
            <button
              type="submit"
              className="button primary"
              data-testid="composer-send"
              disabled={busy || attachments.reading || empty}
            >
              {t('composer.send')}
            </button>
          )}
        </div>
      </div>
    </form>
  );
}

/** The hidden file input and the button that opens it. */
function AttachButton(props: { attachments: Attachments }): ReactNode {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="composer-attach-input"
        onChange={(event) => {
          void props.attachments.add([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <button
        type="button"
        className="button ghost"
        data-testid="composer-attach"
        title={t('composer.attach')}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon /> {t('composer.attach')}
      </button>
    </>
  );
}

function ModePicker(): ReactNode {
  const t = useT();
  const mode = useApp((state) => state.mode);
  const setMode = useApp((state) => state.setMode);
  return (
    <label className="mode-picker">
      <span>{t('composer.mode')}</span>
      <select
        data-testid="mode-picker"
        value={mode}
        onChange={(event) => setMode(event.target.value as TurnMode)}
      >
        {MODES.map((value) => (
          <option key={value} value={value}>
            {t(`mode.${value}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

function StopButton(props: { turnId: string }): ReactNode {
  const t = useT();
  const stop = useApp((state) => state.stop);
  return (
    <button
      type="button"
      className="button danger"
      data-testid="turn-stop"
      onClick={() => void stop(props.turnId)}
    >
      ■ {t('composer.stop')}
    </button>
  );
}
