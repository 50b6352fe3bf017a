// Issue 35: a hub's own rate budget, the platform on PostgreSQL (the test cluster; the scenarios:
// hub-backlog.ts). In the e2e tier: a backlog pushed through PostgreSQL takes tens of seconds.
import { hubBudgetScenarios, postgresUpstream } from './hub-backlog.ts';

hubBudgetScenarios('postgres', postgresUpstream);
