/**
 * The user's way out when no save of a conversation's workspace can be read (the only save is
 * damaged, or the one before it too): restoring fails with `damaged-save` and every session of
 * the conversation with it, until the user chooses to start with an empty /workspace. Then the
 * damaged saves are kept aside (ArchiveStore.keepAsideDamaged: renamed, never deleted) and the
 * next session finds no archive. Nothing is moved unless that is really the case: a save that
 * reads fine (or an older one that does, which a restore falls back to) is never set aside, so
 * nobody throws good files away by mistake.
 */
import type { ArchiveStore } from './archive-store';
import type { WorkspaceReset } from './sandbox-service';
import { SandboxError } from './sandbox-service';
import type { WorkspaceArchiver } from './workspace-archiver';

export interface DamagedSavesOptions {
  archiver: WorkspaceArchiver;
  archives: ArchiveStore;
  logger: { warn(message: string, fields?: object): void };
  now: () => number;
}

/**
 * Keeps the conversation's damaged saves aside, or refuses ('not-damaged', nothing changed).
 * `holder` says what else holds the files: an open session (restored, so not damaged) or a kept
 * container (which the next session takes over).
 */
export async function resetDamagedSaves(
  options: DamagedSavesOptions,
  conversationId: string,
  holder: 'session' | 'kept' | null,
): Promise<WorkspaceReset> {
  const refuse = (why: string): SandboxError =>
    new SandboxError('not-damaged', `${why}; nothing was changed.`);
  if (holder === 'session') {
    throw refuse('The sandbox session of this conversation is open, so its files were restored');
  }
  if (holder === 'kept') {
    throw refuse(
      'The files of this conversation are in a kept container, which its next session takes over',
    );
  }
  const { archiver, archives } = options;
  const damage = await archiver.damageOf(conversationId, 'current');
  if (damage === null) {
    throw refuse(
      (await archives.has(conversationId))
        ? 'The last save of /workspace can be read; it is restored by the next run'
        : 'There is no save of /workspace for this conversation',
    );
  }
  const hasOlder = (await archives.savedAt(conversationId, 'previous')) !== null;
  if (hasOlder && (await archiver.damageOf(conversationId, 'previous')) === null) {
    throw refuse('An older save of /workspace can be read; it is restored by the next run');
  }
  const keptAs = await archives.keepAsideDamaged(
    conversationId,
    hasOlder ? ['current', 'previous'] : ['current'],
    options.now(),
  );
  options.logger.warn('damaged workspace saves kept aside; the next session starts empty', {
    conversation: conversationId,
    damage,
    kept_as: keptAs,
  });
  return { conversation_id: conversationId, kept_as: keptAs };
}
