/**
 * Settings pages beyond plain settings groups: the global tool switches (settings → tools) and the
 * code sandbox's status line ("请先配置沙盒: …" when none can be used).
 */
import { z } from 'zod';
import { toolStatusSchema } from './dto-schemas';

/** Where python_execute runs, or why it cannot. */
export const sandboxStatusSchema = z.object({
  state: z.enum(['external', 'local', 'unavailable']),
  url: z.string().nullable(),
  /** "请先配置沙盒: …" when unavailable. */
  reason: z.string().nullable(),
});

/** The settings-page methods, spread into `invokeContract`. */
export const settingsPageMethods = {
  /** The global switch of one built-in tool (it is removed from every model when off). */
  'tools.setAvailability': {
    request: z.object({ name: z.string().trim().min(1).max(100), enabled: z.boolean() }).strict(),
    response: z.array(toolStatusSchema),
  },
  /** The sandbox in use (resolved once per app start) or the reason none is. */
  'sandbox.status': {
    request: z.object({}).strict().optional(),
    response: sandboxStatusSchema,
  },
};
