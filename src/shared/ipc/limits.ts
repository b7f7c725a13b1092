/**
 * The contract's size limits as plain constants, without zod: the renderer reads them (to refuse
 * an oversized file before sending it) without bundling the schemas, which only the host needs.
 * The schema modules re-export them.
 */

/** Longest URL a model or sandbox endpoint may have. */
export const MAX_URL_CHARS = 2048;

/** Longest conversation title (the user's own or a generated one). */
export const MAX_TITLE_CHARS = 200;

/** Longest user message text `chat.send` accepts, after trimming (a long pasted document). */
export const MAX_MESSAGE_CHARS = 100_000;
/** Files one message may carry (checked by the composer, the contract and the chat service). */
export const MAX_ATTACHMENTS = 10;
/** Bytes one attached file may have: the sidecar's default upload cap (SANDBOX_MAX_UPLOAD_BYTES, seed 003), 40 MiB. */
export const MAX_ATTACHMENT_BYTES = 40 * 1024 * 1024;
/**
 * Bytes all files of one message may have together: more than two full-size files, while the
 * base64 request (about 4/3 of it) still fits comfortably in one WebSocket frame and one string.
 */
export const MAX_ATTACHMENTS_TOTAL_BYTES = 100 * 1024 * 1024;
/** Longest attached file name (most file systems stop at 255 bytes). */
export const MAX_ATTACHMENT_NAME_CHARS = 255;
/**
 * Characters an attached file's name may not hold: a path separator or a control character (a
 * browser never gives such a name; a pasted or MCP-made one could).
 */
export const ATTACHMENT_NAME_FORBIDDEN = /[/\\\p{Cc}]/u;
/** Longest file path `files.open` / `files.reveal` accept. */
export const MAX_FILE_PATH_CHARS = 4096;
/**
 * The largest WebSocket frame `aivory serve` accepts: a `chat.send` with the largest message
 * text and the largest attachments, base64 (4/3), plus room for the JSON around them.
 */
export const MAX_REQUEST_FRAME_BYTES =
  Math.ceil((MAX_ATTACHMENTS_TOTAL_BYTES * 4) / 3) + 4 * 1024 * 1024;
/**
 * Largest skill asset the settings page uploads in one message: under 4 MiB once in base64, the
 * frame limit when it was set. The frame is now MAX_REQUEST_FRAME_BYTES (about 137 MiB); the cap
 * stays because a skill's asset is a small reference file, not an attachment.
 */
export const MAX_ASSET_UPLOAD_BYTES = 2_900_000;
/** Highest request id a WebSocket client may use before wrapping around. */
export const MAX_REQUEST_ID = 2 ** 31 - 1;
/** Longest MCP config `mcp.importPlan` / `mcp.import` read (a real one is a few KiB). */
export const MAX_MCP_IMPORT_CHARS = 512 * 1024;

/** The shortest passphrase that seals a backup's secrets (the CLI, the app and the contract). */
export const MIN_PASSPHRASE_LENGTH = 8;
