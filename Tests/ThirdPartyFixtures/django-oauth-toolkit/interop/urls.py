from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path
from oauth2_provider.views.generic import ProtectedResourceView


class ApiEndpoint(ProtectedResourceView):
    """The tutorial's protected resource: a valid access token opens it."""

    def get(self, request, *args, **kwargs):
        return JsonResponse({"username": request.resource_owner.get_username()})


urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("api/hello", ApiEndpoint.as_view()),
]
