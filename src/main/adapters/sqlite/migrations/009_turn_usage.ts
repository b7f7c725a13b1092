/** Migration 9: a turn keeps its token counts. Never edit a shipped migration; add the next one. */
export default `
-- 009: the tokens a turn's requests used, when the provider reported them (JSON
-- { inputTokens, outputTokens }, summed over the turn's rounds). NULL: not reported.
ALTER TABLE turn_records ADD COLUMN usage TEXT CHECK (usage IS NULL OR json_valid(usage));
`;
