/** The console's entry: the frame and the pages every visit may need first; the rest load per page. */
import './app/rf-console/rf-console.ts';
import './pages/sign-in/sign-in-page.ts';
import './pages/unauthorized/unauthorized-page.ts';
import { interceptLinks } from './app/router.ts';

interceptLinks(document);
