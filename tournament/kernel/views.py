from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournament.kernel.cache import cache_status


@require_GET
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers: 200 when this app server can reach its database, the body
    saying how the cache is. A degraded cache is still 200: pages come from the database
    meanwhile (``tournament.kernel.cache``), so the server should stay in the rotation."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return HttpResponse(f"database: ok\ncache: {cache_status()}\n", content_type="text/plain")
