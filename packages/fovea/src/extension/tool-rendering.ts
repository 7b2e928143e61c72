import type { ToolRenderers } from "@earendil-works/pi-coding-agent";

let view: typeof import("./tool-view.ts") | undefined;

/**
 * Renderers of tool `name` (Fovea's and Contour's), drawn by `tool-view.ts`. It loads on the first draw; until then
 * the renderer throws, so Pi draws the row its own way, and redraws it once loaded.
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
