/**
 * The schema migrations, in order: entry N (from 0) brings `PRAGMA user_version` from N to N + 1.
 * They are TypeScript modules holding SQL text, so they ship inside every bundle (the desktop main,
 * the CLI) and load the same way under vitest and tsx; nothing is read from disk beside a bundle.
 */
import migration001 from './001_initial';
import migration002 from './002_skills_prompts';
import migration003 from './003_conversation_tools';
import migration004 from './004_mcp';
import migration005 from './005_turn_taint';
import migration006 from './006_turn_taint_record';
import migration007 from './007_turn_error_message';
import migration008 from './008_model_vision';
import migration009 from './009_turn_usage';
import migration010 from './010_message_tree';
import migration011 from './011_conversation_settings';
import migration012 from './012_conversation_pins';
import migration013 from './013_mcp_oauth';
import migration014 from './014_mcp_roots';
import migration015 from './015_turn_leases';
import migration016 from './016_title_source';
import migration017 from './017_mcp_server_features';
import migration018 from './018_knowledge';

/** The SQL of each migration; the version of `MIGRATIONS[i]` is `i + 1`. */
export const MIGRATIONS: readonly string[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
];
