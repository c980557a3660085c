import type { Metadata } from 'next';
import { SignInForms } from '@/components/auth/sign-in-forms';

export const metadata: Metadata = { title: 'Sign in' };

export default function SignInPage() {
  // The development sign-in does not exist in production builds (its endpoint answers 404 there).
  const isDevSignInEnabled = process.env.NODE_ENV !== 'production';
  return <SignInForms isDevSignInEnabled={isDevSignInEnabled} />;
}
