// The admin session behind the manager's screens in a browser (`npm start` without Electron): the
// one-time link, the session, the checks on address, Host and Origin, and the token's redaction.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { ADMIN_LINK_TTL_MS, createAdminSessions, redactAdminTokens } from '../../../../src/engine/http/kitchen/admin-session.ts';
import { adminRequestRefusal, isLoopbackAddress, isLoopbackHost } from '../../../../src/engine/http/kitchen/request-origin.ts';
import { requestForLog } from '../../../../src/engine/http/request-log.ts';

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('one-time links and sessions', () => {
  test('a link is a long random secret, spent once for a session', () => {
    const sessions = createAdminSessions();
    const link = sessions.issueLink('http://127.0.0.1:4750');
    assert.match(link, /^http:\/\/127\.0\.0\.1:4750\/kitchen\/admin\?token=cmadm_[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(link);
    assert.notEqual(token, tokenOf(sessions.issueLink('http://127.0.0.1:4750')), 'every link is new');
    const session = sessions.redeem(token);
    assert.ok(session && session.length >= 43);
    assert.equal(sessions.isSession(session), true);
    assert.equal(sessions.redeem(token), null, 'single use');
    assert.equal(sessions.isSession(token), false, 'the token is not a session');
    assert.equal(sessions.isSession(`${session}x`), false);
    assert.equal(sessions.redeem(''), null);
    assert.equal(sessions.redeem(token.slice(0, -1)), null);
  });

  test('a link expires after ten minutes on the clock it is given', () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    const sessions = createAdminSessions(() => clock.now());
    const early = tokenOf(sessions.issueLink('http://127.0.0.1:1'));
    const late = tokenOf(sessions.issueLink('http://127.0.0.1:1'));
    clock.advance(ADMIN_LINK_TTL_MS - 1);
    assert.ok(sessions.redeem(early), 'still valid a moment before');
    clock.advance(1);
    assert.equal(sessions.redeem(late), null, 'expired at ten minutes');
  });
});

describe('who may act as the manager', () => {
  test('loopback addresses, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(address), true, address);
    for (const address of ['192.0.2.2', '10.0.0.1', '::ffff:192.168.1.5', '0.0.0.0', 'fe80::1', '128.0.0.1', '', undefined, '127.0.0.1.evil']) {
      assert.equal(isLoopbackAddress(address), false, String(address));
    }
  });

  test('loopback Host headers, and nothing else (no DNS rebinding)', () => {
    for (const host of ['127.0.0.1:4750', 'localhost:4750', '[::1]:4750', 'LOCALHOST', '127.0.0.1']) assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['evil.example:4750', '192.0.2.2:4750', 'localhost.evil.example', '127.0.0.1.nip.io:4750', '', undefined]) {
      assert.equal(isLoopbackHost(host), false, String(host));
    }
  });

  test('address, Host, Origin and Sec-Fetch-Site are each enough to refuse', () => {
    const own = { remoteAddress: '127.0.0.1', host: '127.0.0.1:4750', origin: 'http://127.0.0.1:4750', fetchSite: 'same-origin' };
    assert.equal(adminRequestRefusal(own, { requireOrigin: true }), null);
    assert.equal(adminRequestRefusal({ ...own, host: 'localhost:4750', origin: 'http://localhost:4750' }, { requireOrigin: true }), null);
    assert.equal(adminRequestRefusal({ ...own, remoteAddress: '192.0.2.2' }, { requireOrigin: true }), 'not_loopback');
    assert.equal(adminRequestRefusal({ ...own, remoteAddress: '::ffff:192.0.2.2' }, { requireOrigin: true }), 'not_loopback');
    assert.equal(adminRequestRefusal({ ...own, host: 'evil.example:4750', origin: 'http://evil.example:4750' }, { requireOrigin: true }), 'foreign_host');
    assert.equal(adminRequestRefusal({ ...own, origin: 'http://evil.example' }, { requireOrigin: true }), 'foreign_origin');
    assert.equal(adminRequestRefusal({ ...own, origin: 'http://127.0.0.1:4751' }, { requireOrigin: true }), 'foreign_origin', 'another port is another origin');
    assert.equal(adminRequestRefusal({ ...own, origin: 'null' }, { requireOrigin: true }), 'foreign_origin');
    assert.equal(adminRequestRefusal({ ...own, origin: undefined }, { requireOrigin: true }), 'foreign_origin', 'a POST must say its Origin');
    assert.equal(adminRequestRefusal({ ...own, origin: undefined, fetchSite: undefined }, { requireOrigin: false }), null, 'a navigation or an event stream may not');
    assert.equal(adminRequestRefusal({ ...own, fetchSite: 'cross-site' }, { requireOrigin: true }), 'foreign_origin');
    assert.equal(adminRequestRefusal({ ...own, fetchSite: 'same-site' }, { requireOrigin: true }), 'foreign_origin');
  });
});

describe('the token stays out of logs', () => {
  test('in a URL however it is placed, and in any text', () => {
    const sessions = createAdminSessions();
    const link = sessions.issueLink('http://127.0.0.1:4750');
    const token = tokenOf(link);
    assert.equal(redactAdminTokens(link), 'http://127.0.0.1:4750/kitchen/admin?token=cmadm_[redacted]');
    assert.equal(redactAdminTokens(`/kitchen/admin?x=1&token=${token}&y=2`), '/kitchen/admin?x=1&token=cmadm_[redacted]&y=2');
    assert.equal(redactAdminTokens('/kitchen/admin?token=guess'), '/kitchen/admin?token=[redacted]');
    assert.ok(!redactAdminTokens(`error near ${token} here`).includes(token.slice(6)));
    assert.equal(redactAdminTokens('/kitchen/api/board:snapshot'), '/kitchen/api/board:snapshot');
    const logged = requestForLog({ method: 'GET', url: `/kitchen/admin?token=${token}`, host: '127.0.0.1:4750', ip: '127.0.0.1', socket: { remotePort: 1 } } as never);
    assert.equal(logged.url, '/kitchen/admin?token=cmadm_[redacted]');
  });
});
