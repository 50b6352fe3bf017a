// Issue 35: a hub's own rate budget, the platform on SQLite (the scenarios: hub-backlog.ts).
import { hubBudgetScenarios, sqliteUpstream } from './hub-backlog.ts';

hubBudgetScenarios('sqlite', sqliteUpstream);
