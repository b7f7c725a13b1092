/**
 * `aivory memories list|confirm ID|edit ID TEXT|archive ID|restore ID|delete ID`: the facts
 * save_memory stored. ACTIVE ones go into later system prompts; archived ones are kept but left
 * out; PENDING ones (saved after a turn read untrusted content) wait for `confirm` (or `delete`).
 */
import { parseArgs } from 'node:util';
import type { Memory } from '../../shared/dto';
import type { AppContext } from '../composition/app-context';
import { MemoriesService } from '../services/memories-service';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

const USAGE =
  'Usage: aivory memories list | confirm ID | edit ID TEXT | archive ID | restore ID | delete ID';

export function memoriesCommand(argv: string[], context: AppContext, io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [action = 'list', id, ...rest] = positionals;
  const memories = new MemoriesService(context.stores.memories);
  if (action === 'list') {
    const all = memories.list();
    if (values.json) io.stdout(`${JSON.stringify(all)}\n`);
    else if (all.length === 0) io.stdout('No memories saved.\n');
    else for (const memory of all) io.stdout(`${listLine(memory)}\n`);
    return EXIT_OK;
  }
  if (!['confirm', 'edit', 'archive', 'restore', 'delete'].includes(action)) {
    throw usageError(`Unknown action "${action}". ${USAGE}`);
  }
  if (!id)
    throw usageError(`Usage: aivory memories ${action} ID${action === 'edit' ? ' TEXT' : ''}`);
  if (action !== 'edit' && rest.length > 0) {
    throw usageError(`Unexpected argument "${rest.join(' ')}". ${USAGE}`);
  }
  switch (action) {
    case 'edit': {
      if (rest.length === 0) throw usageError('Usage: aivory memories edit ID TEXT');
      const memory = memories.edit(id, rest.join(' '));
      io.stdout(`${listLine(memory)}\n`);
      return EXIT_OK;
    }
    case 'confirm': {
      const memory = memories.confirm(id);
      io.stdout(`${listLine(memory)}\n`);
      return EXIT_OK;
    }
    case 'archive':
    case 'restore': {
      const memory = memories.setStatus(id, action === 'archive' ? 'ARCHIVED' : 'ACTIVE');
      io.stdout(`${listLine(memory)}\n`);
      return EXIT_OK;
    }
    default:
      memories.remove(id);
      io.stdout(`Deleted memory ${id}.\n`);
      return EXIT_OK;
  }
}

/**
 * `ID<TAB>STATUS<TAB>YYYY-MM-DD HH:MM<TAB>text`, and for a PENDING memory a second, indented line
 * with its origin (`  from turn T: REASON — aivory memories confirm ID`).
 */
function listLine(memory: Memory): string {
  const when = new Date(memory.createdAt).toISOString().replace('T', ' ').slice(0, 16);
  const line = `${memory.id}\t${memory.status}\t${when}\t${oneLine(memory.memoryText)}`;
  if (memory.status !== 'PENDING') return line;
  const origin = memory.origin;
  const from = origin
    ? `from ${origin.turnId ? `turn ${origin.turnId}` : 'a turn'} that read ${oneLine(origin.reason)}`
    : 'origin unknown';
  return `${line}\n  pending: saved ${from} — confirm with: aivory memories confirm ${memory.id}`;
}

/** Line breaks and tabs shown as spaces, so one memory stays one line. */
function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}
