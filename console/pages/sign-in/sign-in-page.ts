import { SignInPage } from './sign-in-page.component.ts';

export * from './sign-in-page.component.ts';

customElements.define('rf-sign-in-page', SignInPage);
