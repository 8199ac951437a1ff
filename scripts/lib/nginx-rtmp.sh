# Starts nginx-rtmp in the foreground of a background job, for the benchmark and soak
# scripts: start_nginx_rtmp DIR PORT [APPLICATION_DIRECTIVES] [HTTP_BLOCK]. RTMP listens on
# 127.0.0.1:PORT with application `live`; its pid is appended to the caller's `children`.
start_nginx_rtmp() {
  local dir=$1 port=$2 application=${3:-} http=${4:-}
  cat > "$dir/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off;
master_process off;
error_log $dir/error.log;
pid $dir/nginx.pid;
events {}
rtmp { server { listen 127.0.0.1:$port; application live { live on; $application } } }
$http
CONF
  /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" & children+=($!)
  sleep 1
}
