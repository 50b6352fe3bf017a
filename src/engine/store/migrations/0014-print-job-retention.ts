// Finished print jobs (printed, dropped) are purged after a retention (services/printing/print-jobs.ts):
// the purge finds the oldest ones through this index, a bounded number per pass, never by a scan
// of the jobs kept.
export default /* sql */ `
CREATE INDEX print_jobs_finished ON print_jobs (updated_at) WHERE status IN ('printed', 'dropped');
`;
