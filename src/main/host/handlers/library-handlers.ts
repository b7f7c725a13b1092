/**
 * `tools.status`, `memories.list`, `skills.list`, `prompts.list`: what the settings pages list.
 * Editing these arrives with the settings pages; the CLI already edits them.
 */
import { MemoriesService } from '../../services/memories-service';
import { PromptsService } from '../../services/prompts-service';
import { SkillsService } from '../../services/skills-service';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type LibraryHandlers = Pick<
  ApiHandlers,
  'tools.status' | 'memories.list' | 'skills.list' | 'prompts.list'
>;

/** The library handlers over the host context. */
export function createLibraryHandlers(context: HostContext): LibraryHandlers {
  const { stores, tools, ids } = context.app;
  return {
    'tools.status': async () =>
      (await tools.list()).map(({ name, enabled, tool, reason }) => ({
        name,
        available: tool !== null,
        enabled,
        reason: enabled ? reason : 'switched off in settings',
      })),
    'memories.list': () => new MemoriesService(stores.memories).list(),
    'skills.list': () =>
      new SkillsService(stores.library).list().map((skill) => ({
        name: skill.name,
        icon: skill.icon,
        whenToUse: skill.whenToUse,
        builtIn: skill.builtIn,
        assetCount: skill.assets.length,
        updatedAt: skill.updatedAt,
      })),
    'prompts.list': () => new PromptsService(stores.library, ids).list(),
  };
}
