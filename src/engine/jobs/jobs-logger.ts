/** The part of a pino/Fastify logger the jobs use. */
export interface JobsLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: JobsLogger = { info: () => {}, warn: () => {}, error: () => {} };
