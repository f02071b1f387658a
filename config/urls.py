from django.contrib import admin
from django.urls import include, path

from tournament.accounts.forms import AdminLoginForm
from tournament.kernel.views import favicon, guide, healthz

# The admin pages' login refuses a user name longer than any account's, as ours does.
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    # The guide, built from docs/ (tournament/kernel/guide.py).
    path("guide/", guide, name="guide"),
    path("guide/<path:path>", guide, name="guide_file"),
    path("admin/", admin.site.urls),
    path("accounts/", include("tournament.accounts.urls")),
    path("", include("tournament.urls")),
]
