// Which errors are an outage (retried, then answered 503) and which are not (a bug, a refusal).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CommitOutcomeUnknown, isStorageOutage, StorageUnavailable } from '../../src/engine/storage-unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('a failover\'s errors are outages: shutdown, cannot connect now, read-only, class 08, cut or refused sockets, pg\'s own words', () => {
  for (const error of [
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P02'),
    withCode('57P03', 'the database system is starting up'),
    withCode('25006', 'cannot execute INSERT in a read-only transaction'),
    withCode('08006'),
    withCode('08001'),
    withCode('08P01'),
    withCode('ECONNRESET'),
    withCode('ECONNREFUSED'),
    withCode('EPIPE'),
    withCode('ETIMEDOUT'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('Query read timeout'),
    new StorageUnavailable('down'),
    new CommitOutcomeUnknown(new Error('Connection terminated unexpectedly')),
  ]) {
    assert.equal(isStorageOutage(error), true, `${(error as { code?: string }).code ?? ''} ${error.message}`);
  }
});

test('anything else is not: a constraint, a deadlock, a syntax error, a bug, a message merely mentioning a connection', () => {
  for (const error of [
    withCode('23505', 'duplicate key value violates unique constraint'),
    withCode('40P01', 'deadlock detected'),
    withCode('42601', 'syntax error'),
    withCode('57014', 'canceling statement due to statement timeout'),
    new TypeError('cannot read properties of undefined'),
    new Error('the Connection terminated unexpectedly, said a customer'),
    null,
    'Connection terminated unexpectedly',
  ]) {
    assert.equal(isStorageOutage(error), false, String((error as Error | null)?.message ?? error));
  }
});
