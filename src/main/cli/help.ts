/** The `aivory --help` text: every subcommand, its flags, and the environment it reads. */
export const HELP_TEXT = `aivory — Aivory Personal on the command line (same data and services as the desktop app)

Usage:
  aivory chat [options] MESSAGE        Run one turn and store it in a conversation (then the id to continue it, on stderr)
  aivory chat [options]                Chat interactively: one turn per line; Ctrl-C stops an answer, Ctrl-D quits;
                                       /new, /model [ID], /tools [a,b|none|default], /retry, /help, /quit
  aivory tool NAME JSON                Run one built-in tool directly (same guards and limits as in a turn)
  aivory tools                         List the built-in tools and whether each is available
  aivory conversations list [--json]   List conversations, newest first ("pinned" marks pinned ones)
  aivory conversations rename ID TITLE Give a conversation your own title (a title the model writes never replaces it)
  aivory conversations pin ID | unpin ID
                                       Pin a conversation to the top of the app's list, or unpin it
  aivory conversations show ID [--all-versions]
                                       Print a conversation with its tool calls (every version of its answers and questions)
  aivory conversations version ID MESSAGE_ID
                                       Show another version of a message (the path through it) in the app and exports
  aivory conversations export ID [--format md|json] [--output FILE]
  aivory conversations export --all [--format md|json] [--output FILE.zip | FOLDER/]
                                       Every conversation with its files: a ZIP (default aivory-conversations-DATE.zip), or a folder tree
  aivory conversations tools ID [--on NAME]… [--off NAME]… [--reset] [--json]
                                       This conversation's own tool switches (over the model's defaults)
  aivory conversations set ID [--system TEXT | --system-prompt NAME_OR_ID | --clear-system]
                    [--temperature X|default] [--top-p X|default] [--max-tokens N|default] [--context all|last:N|tokens:N]
                                       This conversation's instructions and parameters (over the model's defaults)
  aivory models list                   List saved models
  aivory models add --base-url URL --model NAME [--label TEXT] [--api-key KEY]
                    [--tool-mode native|prompt] [--context-window N] [--tools a,b] [--mcp a,b] [--vision] [--default]
                    [--temperature X] [--top-p X] [--max-tokens N] [--system TEXT | --system-prompt NAME] [--context POLICY]
  aivory models edit ID [--label TEXT] [--base-url URL [--keep-key]] [--api-key KEY]
                    [--temperature X|default] [--top-p X|default] [--max-tokens N|default]
                    [--system TEXT | --system-prompt NAME | --clear-system] [--context all|last:N|tokens:N]
                                       The defaults of the model's conversations (a conversation's own settings win);
                                       a saved key does not follow a base URL to another origin unless --keep-key
  aivory models mcp ID --mcp a,b|none | --clear
                                       The MCP services checked by default for a model (marked 已删除/已停用/未同步 when they cannot run)
  aivory models remove ID
  aivory models default ID
  aivory settings [show]               Print the settings (search, sandbox, images, chat, ui, web, mcp, backups) with their values
  aivory settings set KEY.FIELD VALUE  Change one setting, validated (e.g. sandbox.execTimeoutSeconds 300)
  aivory settings set-key search.apiKey|sandbox.apiKey|images.apiKey|backups.passphrase VALUE
                                       Store a key in the secret store (shown masked); clear-key removes it
  aivory skills list [--json]          List skills (the built-in document-generation included)
  aivory skills show NAME              Print a skill's instructions and assets
  aivory skills add --name NAME --when "SENTENCE" --file INSTRUCTIONS.md [--icon ICON] [--asset PATH]...
                                       Add a skill (repeat --asset per file; a built-in's name overrides it)
  aivory skills remove NAME
  aivory prompts list [--json] | show ID | remove ID
  aivory prompts add --title TITLE --file BODY.md [--tags a,b]
  aivory memories list [--json]        Saved memories, newest first (PENDING ones wait for confirm)
  aivory memories confirm ID | edit ID TEXT | archive ID | restore ID | delete ID
  aivory knowledge add PATH [--name N] [--json]
                                       Index a folder of your documents for search (Markdown, text, code, HTML, CSV, PDF);
                                       the same folder added again resumes an interrupted index
  aivory knowledge list [--json] | status [NAME] [--json]
                                       Knowledge folders; each file's status (indexed, skipped or failed, and why)
  aivory knowledge search QUERY [--folder N] [--limit N] [--json]
                                       Full-text search, best first, with citations (folder:path#L10-L42, #page=3)
  aivory knowledge reindex NAME | remove NAME
                                       Read again what changed on disk; drop a folder's index (never its files)
  aivory mcp add --name N --url URL --description D [--icon I] [--header 'K: V']… [--timeout S] [--max-timeout S] [--transport streamable-http|sse]
  aivory mcp add --name N --command CMD [--arg A]… [--env K=V]… --description D   (stdio; needs settings mcp.allowLocalCommands true)
                                       A value may start with "-": --command npx --arg -y --arg some-server
                                       A loader variable (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH…: it makes the server load other code)
                                       is refused unless allowed for the service: --allow-loader-env VAR (add or edit)
  aivory mcp edit N [--name N2] [--url URL] [--description D] [--icon I] [--header 'K: V']… [--timeout S] …
                                       (headers given replace the saved ones; a new address needs a new test)
  aivory mcp list | test N | sync N [--accept] | diff N | accept N | tools N | enable N | disable N | remove N
                                       (tools: name, approval, the server's own hints — read-only, destructive, … — and description)
  aivory mcp add … --enable [--yes]   Add, test, sync, show the tools, accept (asked on a terminal; --yes accepts) and enable
  aivory mcp import FILE|- [--yes] [--enable] [--input ID=VALUE]… [--allow-loader-env SERVICE:VAR]…
                                       Claude Desktop, .mcp.json, Cursor or VS Code configs (secrets to the secret store);
                                       the plan shows what runs, loader variables are left out unless allowed per service
                                       --enable: then one review of every imported service's tools, one question to accept and enable them all
  aivory mcp export [--file F]         The saved services as mcpServers JSON (secret values left out)
  aivory mcp login N | logout N         OAuth sign-in (the page opens in $BROWSER or your browser; the link is printed)
  aivory mcp login N --auth-server ISSUER   Allow the sign-in at that authorization server (after the service moved there)
                                       test, sync and call sign in by themselves when the server asks; chat turns only say so
                                       An authorization server's error ends the sign-in at once; a client registration it
                                       forgot (invalid_client) is made again by itself. login --new-client: register anew
                                       logout keeps the registration; logout --forget-client drops it too
  aivory mcp add … --client-id ID [--client-secret S | --client-secret-file F|- | --client-key-file PEM] [--oauth-grant authorization-code|client-credentials]
                                       A client registered with the authorization server beforehand (secret / key to the secret store)
  aivory mcp add|edit … --trust-auth-server ORIGIN   (edit … --untrust-auth-server ORIGIN takes it back)
                                       A local service's sign-in may use another port of its host (e.g. a local Keycloak) only when trusted
  aivory mcp approval N TOOL ask|allow|allow-even-after-web|deny|default
  aivory mcp call N TOOL JSON          Call a tool yourself: no approval prompt (your call is the approval); a tool set to deny refuses
                                       [--elicit ask|decline|accept-defaults] answers the server's questions (see chat options)
                                       [--sampling ask|deny|allow] the server asks your default model for a reply (see chat options)
  aivory mcp prompts N | prompt N NAME [key=value]… | resources N | resource N URI
  aivory mcp resource N URI --watch [--count N]
                                       Print the resource again each time the server says it changed (resources/subscribe),
                                       until Ctrl-C or N changes
  aivory mcp complete N prompt NAME ARG [PREFIX] | complete N resource TEMPLATE ARG [PREFIX]
                                       The server's suggestions for an argument, one a line (completion/complete);
                                       [--context k=v]… the other arguments' values, [--json]
  aivory mcp roots N [--add DIR [--name NAME] | --remove DIR]
                                       Folders shared with the server (MCP roots; none by default)
                                       Your MCP services: test, sync with a diff to accept, approvals, calls
  aivory backup create [--to DIR|s3://BUCKET/PREFIX] [--passphrase-file F | --no-secrets] [--json]
                                       One file with the database, files, saved workspaces and (sealed with your passphrase)
                                       the secrets, read back and verified before it counts (default folder: backups/ in AIVORY_HOME)
  aivory backup verify FILE [--json]   Read a backup back whole: every file's hash, the database's integrity and row counts
  aivory backup restore FILE [--passphrase-file F | --no-secrets] [--yes]
                                       Into an empty data folder (a new computer) or over this one (backed up first);
                                       a damaged or foreign file is refused before anything is replaced
  aivory backup status [--json]        The last verified backup and its age, the schedule; exits 1 with a warning when the
                                       last backup failed or automatic backups are overdue (aivory settings set backups.auto true)
  aivory doctor [--model NAME] [--json]
                                       Check the data directory, the model server and why each tool is (not) available
  aivory serve [--port 5217] [--open]  The desktop UI in your browser (127.0.0.1 only; the printed URL carries a token)
  aivory sandbox serve [--host 127.0.0.1] [--port 48217]
                                       Run the Python sandbox sidecar (SANDBOX_* environment; key generated if unset)
  aivory sandbox image build [--image NAME] [--offline] [--force]
                                       Build the runner image (docker build, or offline from Debian packages)
  aivory sandbox reset-workspace CONVERSATION_ID
                                       No save of the conversation's /workspace can be read: start it empty, the damaged save kept aside
  aivory --help | aivory COMMAND --help

chat options:
  --base-url URL          OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1   [AIVORY_BASE_URL]
  --api-key KEY           API key (local servers need none)                            [AIVORY_API_KEY]
  --model NAME            Model name                                                   [AIVORY_MODEL]
  --models a,b[,c,d]      Ask up to 4 saved models (ids, labels or model names, as in aivory models list) the
                          same question at once: their answers print one after another under a line naming
                          each model (--json: every event tagged with its "model"); the first is the one the
                          conversation goes on from, the others are versions of it (aivory conversations version)
  --tool-mode MODE        native (API function calling) or prompt (<tool_call> text)   [AIVORY_TOOL_MODE]
  --vision                The model takes images: attached images go to it as images   [AIVORY_VISION=1]
  --mode MODE             fast (12 tool calls) | normal (48) | deep (150)             default: normal
  --tools a,b,c           Tools for this turn (commas or spaces); "none" for no tools  default: the model's defaults + the conversation's switches
  --conversation ID       Continue a conversation (default: start a new one)
  --continue              Continue the conversation with the latest activity
  --regenerate            With --conversation and no MESSAGE: write a new version of its last answer
  --edit MESSAGE_ID       With --conversation: ask that question again as MESSAGE (a new version; the conversation forks there)
  --attach FILE           Attach a file (repeatable; ≤ 10 files, 40 MiB each): staged in the sandbox's
                          /workspace/uploads, small text files shown to the model (images too, to a vision
                          model: ≤ 8 per message, 20 MiB each), images usable by image_generate
  --attach-resource SERVICE URI
                          Attach an MCP resource (repeatable): SERVICE is an enabled service's name as in
                          aivory mcp list (quote a name with spaces), URI a resource or a filled-in template
                          (aivory mcp resources SERVICE). Its text parts become text files, its binary parts
                          files typed from their bytes; then as --attach (the caps count both together)
  --mcp N[,N…]            Offer these MCP services' accepted tools; names (or ids) split on commas only, so
                          --mcp "Notes Ω/2,files" works; "none" for none (default: the model's MCP defaults, else every enabled service)
  --approve all|none|ask  Answer the model's MCP approval prompts (default: ask on a terminal, none otherwise)
  --elicit ask|decline|accept-defaults
                          When an MCP server asks you something during a call (a form, or a web page to open):
                          ask field by field on a terminal (empty = the default; "decline"/"cancel" ends it;
                          a page opens only after y), decline, or send every field's default (declined when a
                          required field has none; a page is declined). Default: ask on a terminal, decline otherwise
  --sampling ask|deny|allow
                          When an MCP server asks your model for a reply during a call (MCP sampling): ask
                          (shows the server, its system prompt, its messages and the model; y once, a always
                          for this server, N deny), deny every request, or allow each without asking (never
                          with tools; the reply goes to the server only). Default: ask on a terminal, deny otherwise
  --json                  Print one JSON event per line (the TurnEvent union, "type" first)
  --show-reasoning        Print the model's reasoning (dimmed, on stderr, under [reasoning], a blank line before the answer)
  Files a tool made are listed with their full paths on stderr: "  📎 NAME → PATH".
  After the answer, the tokens the provider counted (dimmed, on stderr): "1,234 tokens in · 56 out",
  then how to go on: "conversation ID · continue with: aivory chat --conversation ID" (not with --json).
  A new conversation is titled by its model after the first answer (a short request; the first message
  stays the title if it fails).
  Flags win over environment variables, which win over the saved default model.

Environment:
  AIVORY_HOME                           Data directory (default: ~/.config/Aivory on Linux, shared with the app)
  AIVORY_BACKUP_PASSPHRASE              The passphrase of aivory backup create/restore (instead of --passphrase-file or a prompt)
  AIVORY_BACKUP_S3_ENDPOINT, _REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY
                                        The S3-compatible storage of aivory backup create --to s3://BUCKET/PREFIX
  AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN    Total tool calls per turn in normal mode (default 48)
  AIVORY_LLM_MAX_PROVIDER_ROUNDS        Provider requests per turn (default 20; deep mode at least 160)
  AIVORY_LOG_LEVEL                      debug for a more detailed log (<data dir>/logs/aivory.log, redacted)

Exit codes: 0 turn finished · 1 failed · 2 usage/configuration error · 3 cannot connect/authenticate · 4 conversation busy in another window or process · 130 interrupted
`;
