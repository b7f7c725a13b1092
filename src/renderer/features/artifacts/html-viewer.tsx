/**
 * An HTML page or SVG drawing a model wrote, run in the isolated frame (`shared/artifact-frame.ts`:
 * `sandbox="allow-scripts"` without same-origin, a CSP with no network at all, served by the host
 * at a fixed path), with a toggle to its source. In a browser tab its scripts are off until the
 * user runs them: the browser gives a page WebRTC, which no CSP covers. The page gets its text by `postMessage` once the
 * frame has loaded; nothing the frame sends back is listened to.
 */
import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import { ARTIFACT_FRAME_NO_SCRIPTS, ARTIFACT_FRAME_PATH } from '../../../shared/artifact-frame';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { VIEWER_LIMITS } from './artifact-kind';
import { useFileText } from './read-file';
import { SourceText } from './text-viewer';
import { ReadProblem, ViewerNote } from './viewer-notes';

/** One page or drawing, with "show source". */
export function HtmlViewer(props: { file: ViewedFile; kind: 'html' | 'svg' }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const read = useFileText(bridge, props.file.path, VIEWER_LIMITS[props.kind]);
  const [source, setSource] = useState(false);
  // In a browser tab the page's scripts stay off until the user runs them (see ScriptsOff).
  const [runScripts, setRunScripts] = useState(false);
  if (read.state !== 'ready')
    return <ReadProblem read={read} file={props.file} kind={props.kind} />;
  const browser = bridge?.host !== 'electron';
  const scripts = !browser || runScripts;
  return (
    <div className="artifact-page">
      {browser && <ScriptsOff running={runScripts} onRun={() => setRunScripts(true)} />}
      <div className="artifact-page-bar">
        <ViewerNote>
          {t(browser && runScripts ? 'artifact.isolatedWebRtc' : 'artifact.isolated')}
        </ViewerNote>
        <button
          type="button"
          className="file-action"
          aria-pressed={source}
          data-testid="artifact-source-toggle"
          onClick={() => setSource(!source)}
        >
          {source ? t('artifact.showPage') : t('artifact.showSource')}
        </button>
      </div>
      {source ? (
        <SourceText text={read.text} kind={props.kind} name={props.file.name} />
      ) : (
        <IsolatedFrame
          key={`${props.file.path}:${String(scripts)}`}
          html={props.kind === 'svg' ? svgPage(read.text) : read.text}
          title={t('artifact.frameTitle', { name: props.file.name })}
          scripts={scripts}
        />
      )}
    </div>
  );
}

/**
 * Why a page's scripts are off in a browser tab, and the choice to run them: a page's script can
 * reach the network over WebRTC, which no CSP governs and only the desktop window can deny.
 */
function ScriptsOff(props: { running: boolean; onRun: () => void }): ReactNode {
  const t = useT();
  if (props.running) {
    return (
      <p className="artifact-warning" role="status" data-testid="artifact-scripts-running">
        {t('artifact.scriptsRunning')}
      </p>
    );
  }
  return (
    <p className="artifact-warning" data-testid="artifact-scripts-off">
      {t('artifact.scriptsOff')}{' '}
      <button
        type="button"
        className="file-action"
        data-testid="artifact-run-scripts"
        onClick={props.onRun}
      >
        {t('artifact.runScripts')}
      </button>
    </p>
  );
}

/**
 * The sandboxed frame (also the DOCX viewer's); hands it the page once, when it has loaded. With
 * `scripts` false it is the scriptless variant (`ARTIFACT_FRAME_NO_SCRIPTS`): only the frame's own
 * bootstrap runs.
 */
export function IsolatedFrame(props: { html: string; title: string; scripts: boolean }): ReactNode {
  const frame = useRef<HTMLIFrameElement>(null);
  const sent = useRef(false);
  const src = new URL(
    props.scripts ? ARTIFACT_FRAME_PATH : `${ARTIFACT_FRAME_PATH}?${ARTIFACT_FRAME_NO_SCRIPTS}`,
    window.location.href,
  ).href;
  return (
    <iframe
      ref={frame}
      className="artifact-frame"
      data-testid="artifact-frame"
      title={props.title}
      src={src}
      sandbox="allow-scripts"
      referrerPolicy="no-referrer"
      onLoad={() => {
        // The frame's origin is opaque: '*' is the only target that reaches it. The page is the
        // artifact's own text, nothing secret.
        if (sent.current) return;
        sent.current = true;
        frame.current?.contentWindow?.postMessage({ html: props.html }, '*');
      }}
    />
  );
}

/** An SVG drawing as a page of its own, fitted to the frame. */
function svgPage(svg: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8"><style>' +
    'html,body{margin:0;height:100%;background:#fff}' +
    'body{display:flex;align-items:center;justify-content:center}' +
    'svg{max-width:100%;max-height:100%}</style></head><body>' +
    svg +
    '</body></html>'
  );
}
