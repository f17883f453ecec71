import { Component, type ReactNode } from "react";
import { FallbackScreen } from "./fallback-screen";

/** The fallback screen for a page rendered without the router, whose routes show it otherwise. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    return this.state.error ? <FallbackScreen error={this.state.error} /> : this.props.children;
  }
}
