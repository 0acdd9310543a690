import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { assertPathForm, decide, isWithin, normalizeLexical, type PathPolicyConfig } from '../../../src/core/config/path-policy.js';

const cfg: PathPolicyConfig = { root: '/p', allow: ['/etc/hosts'], block: ['/p/secret'] };

test('normalization table', () => {
  const rows: Array<[string, string]> = [
    ['a/b', '/p/a/b'],
    ['./a/./b/', '/p/a/b'],
    ['a/../b', '/p/b'],
    ['../x', '/x'],
    ['../../../../x', '/x'],
    ['/abs//x/', '/abs/x'],
    ['.', '/p'],
    ['', '/p'],
  ];
  for (const [input, want] of rows) assert.equal(normalizeLexical(input, '/p'), want, input);
});

test('containment is by whole components', () => {
  assert.equal(isWithin('/p', '/p'), true);
  assert.equal(isWithin('/p/a', '/p'), true);
  for (const s of ['/p2', '/p_backup', '/p.bak', '/p ', '/pa/x']) assert.equal(isWithin(s, '/p'), false, s);
  assert.equal(isWithin('/anything', '/'), true);
});

test('decision table', () => {
  assert.equal(decide('/p/a', cfg, 'write').kind, 'allowed');
  assert.deepEqual(decide('/p2/a', cfg, 'write'), { kind: 'denied', abs: '/p2/a', code: 'path_outside_root', reason: 'path is outside project root' });
  assert.equal(decide('/etc/hosts', cfg, 'read').kind, 'allowed');
  assert.equal(decide('/etc/passwd', cfg, 'read').kind, 'denied');
  assert.equal((decide('/p/secret/k', cfg, 'read') as { code: string }).code, 'path_blocked');
  assert.equal(decide('/p/secret2/k', cfg, 'read').kind, 'allowed');
  assert.equal(decide('/p/secret', { ...cfg, allow: ['/p/secret'] }, 'read').kind, 'conflict');
  const readScoped: PathPolicyConfig = { ...cfg, readBlock: ['/p/docs'] };
  assert.equal(decide('/p/docs/x', readScoped, 'read').kind, 'denied');
  assert.equal(decide('/p/docs/x', readScoped, 'write').kind, 'allowed');
  assert.equal(decide('/p/secret/k', readScoped, 'read').kind, 'allowed', 'a read scope replaces the write lists');
});

test('property: a normalized path has no `.` or `..` components and is admitted only inside the root or allow-listed', () => {
  const seg = fc.constantFrom('a', 'b', '..', '.', '', 'p', 'p2', 'secret', 'etc', 'hosts');
  fc.assert(
    fc.property(fc.boolean(), fc.array(seg, { maxLength: 12 }), (abs, parts) => {
      const input = (abs ? '/' : '') + parts.join('/');
      const n = normalizeLexical(input, '/p');
      assert.ok(n.startsWith('/'));
      assert.ok(!n.split('/').some((x) => x === '.' || x === '..'));
      const v = decide(n, cfg, 'write');
      if (v.kind === 'allowed') assert.ok(isWithin(n, '/p') || n === '/etc/hosts');
      if (isWithin(n, '/p/secret')) assert.notEqual(v.kind, 'allowed');
    }),
    { numRuns: 5000 },
  );
});

test('property: assertPathForm either accepts or throws invalid_path, never anything else', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (s) => {
      try {
        assertPathForm(s);
      } catch (e) {
        assert.equal((e as { code?: string }).code, 'invalid_path');
      }
    }),
    { numRuns: 5000 },
  );
});

test('lock files are refused below the root and beside an allowed file; a root whose own path holds such a name still works', () => {
  const lockCfg: PathPolicyConfig = { root: '/p', allow: ['/etc/hosts', '/etc/.hosts.hashline.lock'], block: [] };
  for (const abs of ['/p/.a.txt.hashline.lock', '/p/src/.a.ts.hashline.lock.1f.new', '/p/..x.hashline.lock/y', '/etc/.hosts.hashline.lock']) {
    for (const scope of ['read', 'write'] as const) {
      const v = decide(abs, lockCfg, scope);
      assert.equal(v.kind, 'denied', abs);
      assert.equal(v.kind === 'denied' && v.code, 'path_blocked', abs);
    }
  }
  assert.equal(decide('/p/a.hashline.lock', lockCfg, 'write').kind, 'allowed', 'not a name of the family');
  const oddRoot: PathPolicyConfig = { root: '/home/.x.hashline.lock/proj', allow: [], block: [] };
  assert.equal(decide('/home/.x.hashline.lock/proj/a.txt', oddRoot, 'write').kind, 'allowed');
  assert.equal(decide('/home/.x.hashline.lock/proj/.a.txt.hashline.lock', oddRoot, 'write').kind, 'denied');
});

test('a sealed tree (the state directory) is refused with everything under it, in any root, for both scopes', () => {
  const c: PathPolicyConfig = { root: '/p', roots: ['/home/u'], allow: ['/home/u/.local/state/hashline/x'], block: [], sealTree: ['/home/u/.local/state/hashline'] };
  for (const abs of ['/home/u/.local/state/hashline', '/home/u/.local/state/hashline/history-1.sqlite', '/home/u/.local/state/hashline/x']) {
    for (const scope of ['read', 'write'] as const) {
      const v = decide(abs, c, scope);
      assert.equal(v.kind, 'denied', `${abs} ${scope}`);
      assert.match(v.kind === 'denied' ? v.reason : '', /state directory/);
    }
  }
  assert.equal(decide('/home/u/.local/state/hashline2', c, 'read').kind, 'allowed');
  assert.equal(decide('/home/u/.local/state', c, 'write').kind, 'allowed');
});
