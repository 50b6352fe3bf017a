// The page's policy lives in src/shared (the engine sends it too, on /kitchen/): re-exported here
// for the window and the build.
export { CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY } from '../shared/content-security-policy.ts';
