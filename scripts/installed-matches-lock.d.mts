/** Whether node_modules holds, at their locked versions, the packages package-lock.json installs here. */
export function installedMatchesLock(dir?: string): boolean;
