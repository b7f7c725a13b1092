import { describe, expect, it } from 'vitest';
import {
  expandTemplate,
  templateVariables,
} from '../../../src/renderer/features/composer/uri-template';

describe('MCP resource templates (RFC 6570, simple and reserved expressions)', () => {
  it('lists the variables once, in order', () => {
    expect(templateVariables('demo://resource/dynamic/blob/{resourceId}')).toEqual(['resourceId']);
    expect(templateVariables('file:///{+path}/{name},{ext}/{name}')).toEqual([
      'path',
      'name',
      'ext',
    ]);
    expect(templateVariables('plain://no/variables')).toEqual([]);
  });

  it('refuses operators and modifiers it would expand wrongly', () => {
    expect(templateVariables('search{?q,lang}')).toBeNull();
    expect(templateVariables('x/{#frag}')).toBeNull();
    expect(templateVariables('x/{var:3}')).toBeNull();
    expect(templateVariables('x/{list*}')).toBeNull();
  });

  it('percent-encodes simple values and keeps reserved characters of + expressions', () => {
    expect(expandTemplate('demo://r/{id}', { id: '7' })).toBe('demo://r/7');
    expect(expandTemplate('demo://r/{id}', { id: 'a b/../c?d' })).toBe(
      'demo://r/a%20b%2F..%2Fc%3Fd',
    );
    expect(expandTemplate('file:///{+path}', { path: 'home/me/notes a.md' })).toBe(
      'file:///home/me/notes%20a.md',
    );
    expect(expandTemplate('x/{a,b}', { a: '1', b: '2' })).toBe('x/1,2');
  });
});
