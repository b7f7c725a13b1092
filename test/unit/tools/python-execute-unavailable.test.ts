/**
 * A sandbox that cannot be reached (a killed external sidecar) or refuses the key reaches the
 * user's card and the model with the client's own message, not the generic "Tool execution
 * failed" (issue 37, finding 10); other failures stay generic, and a canceled turn stays canceled.
 */
import { describe, expect, it } from 'vitest';
import { AivoryError } from '../../../src/shared/errors';
import type { PythonSandbox } from '../../../src/main/core/ports';
import { executeTool } from '../../../src/main/core/orchestrator/execute-tool';
import {
  PUBLIC_ERROR_CANCELED,
  PUBLIC_ERROR_FAILED,
} from '../../../src/main/core/orchestrator/protocol-text';
import {
  createPythonExecuteTool,
  SANDBOX_UNAVAILABLE_HINT,
} from '../../../src/main/tools/python-execute';
import { recordingLogger } from '../../support/turn-harness';

const UNREACHABLE =
  'Cannot reach the sandbox at http://127.0.0.1:9: connection refused. Is it running?';

function failingSandbox(error: unknown, onCall?: () => void): PythonSandbox {
  return {
    sessionFor: () => {
      onCall?.();
      return Promise.reject(error);
    },
    exec: () => Promise.reject(new Error('not reached')),
    download: () => Promise.reject(new Error('not reached')),
  };
}

async function run(sandbox: PythonSandbox, signal = new AbortController().signal) {
  const tool = createPythonExecuteTool({
    sandbox,
    artifacts: { save: () => Promise.reject(new Error('not reached')) },
    timeoutSeconds: 10,
    scratchConversationId: 'scratch',
  });
  return executeTool(
    tool,
    { code: 'print(1)' },
    {
      conversationId: 'c1',
      signal,
      logger: recordingLogger(),
    },
  );
}

describe('python_execute when the sandbox is unavailable', () => {
  it('says which sandbox cannot be reached, and that the code did not run', async () => {
    const result = await run(failingSandbox(new AivoryError('connection', UNREACHABLE)));
    expect(result.outcome).toBe('error');
    expect(result.output.content).toBe(`${UNREACHABLE}\n${SANDBOX_UNAVAILABLE_HINT}`);
  });

  it('says the sandbox refused the key', async () => {
    const message = 'The sandbox at http://127.0.0.1:9 rejected the key (HTTP 401): …';
    const result = await run(failingSandbox(new AivoryError('auth', message)));
    expect(result.output.content).toContain(message);
  });

  it('keeps other failures behind the public string', async () => {
    const result = await run(failingSandbox(new Error('EACCES /secret/path')));
    expect(result.output.content).toBe(PUBLIC_ERROR_FAILED);
  });

  it('a turn canceled while the sandbox went away is canceled, not unavailable', async () => {
    const controller = new AbortController();
    const sandbox = failingSandbox(new AivoryError('connection', UNREACHABLE), () =>
      controller.abort(),
    );
    const result = await run(sandbox, controller.signal);
    expect(result.output.content).toBe(PUBLIC_ERROR_CANCELED);
  });
});
