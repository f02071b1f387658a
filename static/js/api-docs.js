// The read API's reference (/api/v1/docs): Swagger UI from our own static files, set going
// here rather than in an inline script, which the Content-Security-Policy forbids.
(function () {
  "use strict";
  function start() {
    var script = document.getElementById("api-docs-script");
    var target = document.getElementById("swagger-ui");
    if (!script || !target || typeof window.SwaggerUIBundle !== "function") {
      return;
    }
    target.textContent = "";
    window.SwaggerUIBundle({
      url: script.dataset.schema,
      domNode: target,
      // No links inside the operations' buttons: a control inside a control is lost to a
      // screen reader (axe-core: nested-interactive).
      deepLinking: false,
      // No call home to validator.swagger.io: the reference works offline.
      validatorUrl: null,
      defaultModelsExpandDepth: 0,
      presets: [window.SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
