from django.contrib import admin
from django.urls import include, path

from tournament.kernel.views import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("tournament.accounts.urls")),
    path("", include("tournament.urls")),
]
