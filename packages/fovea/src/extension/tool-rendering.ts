import type { ToolRenderers } from "@earendil-works/pi-coding-agent";

let view: typeof import("./tool-view.ts") | undefined;

/**
 * Renderers of tool `name` (Fovea's, Contour's) from `tool-view.ts`, loaded on the first draw: until then they throw,
 * so Pi draws the row its own way, then redraws it.
 */
export function toolRenderers(name: string): ToolRenderers {
	const ready = (context: { invalidate(): void }) => {
		if (view) return view;
		void import("./tool-view.ts").then((loaded) => {
			view = loaded;
			context.invalidate();
		});
		throw new Error("loading");
	};
	return {
		renderCall: (args, theme, context) => ready(context).callComponent(name, args, theme),
		renderResult: (result, options, theme, context) => ready(context).resultComponent(result, options, theme, context),
	};
}
