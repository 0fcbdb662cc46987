export * from './admin.ts';
export * from './app-info.ts';
export * from './auth.ts';
export * from './notices.ts';
export * from './password-policy.ts';
export * from './roles.ts';
export * from './studies.ts';
export * from './subjects.ts';
