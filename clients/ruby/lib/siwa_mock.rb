# Run siwa-mock (a fake of Apple's Sign in with Apple server) from Ruby tests. Standard library only;
# sign-in and client secrets are the binary's own (`siwa-mock signin`, `siwa-mock client-secret`), the
# clock, fault, user and journal verbs thin wrappers over the control API (docs/control-api.md).
# For RSpec: require "siwa_mock/rspec" (see docs/test-helpers.md).
require "digest"
require "json"
require "net/http"
require "open3"
require "tempfile"
require "timeout"
require "uri"

class SiwaMock
  READY_PREFIX = "siwa-mock listening on ".freeze
  SMTP_READY_PREFIX = "siwa-mock smtp listening on ".freeze
  MAX_ANSWER_BYTES = 16 << 20 # a control answer larger than this is refused (docs/test-helpers.md)
  RUN_TIMEOUT = 60 # seconds for one run of the binary (sign_in, client_secret, verify)
  HINT = "install it with `gem install siwa_mock` (x86_64 Linux), or build it with `swift build -c release --product siwa-mock` and set SIWA_MOCK_BINARY=.build/release/siwa-mock, " \
         "put siwa-mock on PATH, or set SIWA_MOCK_URL to a running mock".freeze

  # The mock did not start, a control call was refused, or a sign-in did not verify (the message says which).
  class Error < StandardError; end

  attr_reader :url, :log_path, :pid
  # The relay's SMTP listener (start(smtp: true), or $SIWA_MOCK_SMTP); nil without one.
  attr_reader :smtp_host, :smtp_port

  # The binary the platform gem carries (siwa_mock-VERSION-x86_64-linux.gem, scripts/package-ruby.sh):
  # libexec/siwa-mock beside lib/, with the SHA-256 it was packed with.
  PACKAGED = File.expand_path("../libexec/siwa-mock", __dir__)

  # The explicit path, else $SIWA_MOCK_BINARY, else the platform gem's binary (checked by packaged_binary;
  # a broken one fails rather than falling through), else siwa-mock on PATH; a clear error with the hint otherwise.
  def self.find_binary(binary = nil)
    from_env = ENV["SIWA_MOCK_BINARY"].to_s
    if binary.nil? && from_env.empty?
      packaged = packaged_binary
      return packaged if packaged
    end
    candidate = binary || (from_env.empty? ? "siwa-mock" : from_env)
    where = binary ? "given" : (from_env.empty? ? "on PATH" : "from SIWA_MOCK_BINARY")
    if candidate.include?("/")
      return candidate if File.file?(candidate) && File.executable?(candidate)
    else
      ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).each do |dir|
        path = File.join(dir, candidate)
        return path if !dir.empty? && File.file?(path) && File.executable?(path)
      end
    end
    raise Error, "siwa-mock binary not found: '#{candidate}' (#{where}) is not an executable file; #{HINT}"
  end

  # The platform gem's binary, checked once: there, executable, and the bytes whose SHA-256 the gem
  # recorded. nil when this gem carries none (the source gem, or lib/ from a checkout).
  def self.packaged_binary
    return @packaged if @packaged
    return nil unless File.exist?("#{PACKAGED}.sha256")

    fix = "reinstall it: gem install siwa_mock --platform x86_64-linux"
    raise Error, "the siwa_mock gem's binary #{PACKAGED} is missing; #{fix}" unless File.exist?(PACKAGED)
    unless File.file?(PACKAGED) && File.executable?(PACKAGED)
      raise Error, "the siwa_mock gem's binary #{PACKAGED} is not an executable file; #{fix}"
    end
    recorded = File.read("#{PACKAGED}.sha256").split.first
    actual = Digest::SHA256.file(PACKAGED).hexdigest
    if actual != recorded
      raise Error, "the siwa_mock gem's binary #{PACKAGED} has SHA-256 #{actual}, not the #{recorded} the gem recorded; #{fix}"
    end
    @packaged = PACKAGED
  end

  # $SIWA_MOCK_URL when set, else a new mock from the binary.
  def self.start_or_connect(binary: nil, scenario: nil, smtp: false)
    running = ENV["SIWA_MOCK_URL"].to_s
    running.empty? ? start(binary: binary, scenario: scenario, smtp: smtp) : connect(running, binary: binary, smtp: smtp)
  end

  # Starts `siwa-mock serve --port 0` and returns once its ready line names the port it chose.
  # `smtp: true` adds the private email relay's SMTP listener (`--smtp-port 0`, docs/relay-mail.md) and
  # also waits for its ready line, `siwa-mock smtp listening on HOST:PORT`: `smtp_host`, `smtp_port`.
  def self.start(binary: nil, scenario: nil, args: [], timeout: 30, smtp: false)
    path = find_binary(binary)
    command = [path, "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--scenario", scenario.to_s] if scenario
    command += ["--smtp-port", "0"] if smtp
    command += args
    log = Tempfile.create(["siwa-mock-", ".log"])
    log.close
    reader, writer = IO.pipe
    pid = Process.spawn(*command, out: writer, err: log.path, in: File::NULL)
    writer.close
    lines = []
    begin
      Timeout.timeout(timeout) do
        # The HTTP line first; with SMTP, the SMTP line comes after the HTTP one(s).
        loop do
          line = reader.gets
          lines << line.to_s.strip
          break if line.nil? || !smtp || lines.last.start_with?(SMTP_READY_PREFIX)
        end
      end
    rescue Timeout::Error
      reason = "printed no ready line in #{timeout}s"
    end
    complete = lines.first.to_s.start_with?(READY_PREFIX) && (!smtp || lines.last.start_with?(SMTP_READY_PREFIX))
    reason ||= "exited before its ready line (it printed #{lines.join("\n").inspect})" unless complete
    if reason
      stop_process(pid)
      stderr = File.read(log.path).strip
      File.delete(log.path)
      raise Error, "siwa-mock did not start (#{command.join(' ')}): #{reason}; its stderr:\n#{stderr}"
    end
    Thread.new { reader.read rescue nil } # keep draining until the mock exits
    mock = new(lines.first.delete_prefix(READY_PREFIX), binary: path, pid: pid, log_path: log.path)
    mock.send(:smtp_address=, lines.last.delete_prefix(SMTP_READY_PREFIX)) if smtp
    mock
  end

  # A mock someone else runs (e.g. SIWA_MOCK_URL from docker compose); stop leaves it running. Its SMTP
  # listener cannot be learned from its URL: `smtp_host`/`smtp_port` come from $SIWA_MOCK_SMTP
  # (`HOST:PORT`, what its `siwa-mock smtp listening on` line printed); `smtp: true` without it is an
  # error rather than a guess.
  def self.connect(url, binary: nil, smtp: false)
    mock = new(url, binary: binary)
    address = ENV["SIWA_MOCK_SMTP"].to_s
    if !address.empty?
      mock.send(:smtp_address=, address)
    elsif smtp
      raise Error, "the SMTP listener of the mock at #{url} (SIWA_MOCK_URL) is unknown: set SIWA_MOCK_SMTP to " \
                   "the HOST:PORT its `siwa-mock smtp listening on` line printed (serve --smtp-port)"
    end
    mock.health
    mock
  end

  def self.stop_process(pid)
    Process.kill("TERM", pid)
    Timeout.timeout(10) { Process.wait(pid) }
  rescue Timeout::Error
    Process.kill("KILL", pid)
    Process.wait(pid)
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  end

  def initialize(url, binary: nil, pid: nil, log_path: nil, admin_token: ENV["SIWA_MOCK_ADMIN_TOKEN"])
    @url = url.sub(%r{/+\z}, "")
    @binary = binary
    @pid = pid
    @log_path = log_path # the mock's stderr (request logs) when this object started it; stop deletes it
    @admin_token = admin_token
  end

  # SIGTERM to the mock this object started (in-flight requests finish), SIGKILL after 10 s; then its
  # stderr log is deleted, so a run leaves no files behind.
  def stop
    self.class.stop_process(@pid) if @pid
    @pid = nil
    File.delete(@log_path) if @log_path && File.exist?(@log_path)
    @log_path = nil
  end

  # -- the binary's own verbs ---------------------------------------------------------------------

  def run(*args)
    @binary ||= self.class.find_binary
    env = @admin_token ? { "SIWA_MOCK_ADMIN_TOKEN" => @admin_token } : {}
    Open3.popen3(env, @binary, *args) do |stdin, stdout, stderr, waiter|
      stdin.close
      out = Thread.new { stdout.read }
      err = Thread.new { stderr.read }
      unless waiter.join(RUN_TIMEOUT) # the deadline the other helpers' runs have
        Process.kill("KILL", waiter.pid)
        waiter.join
        raise Error, "siwa-mock #{args.first} did not finish within #{RUN_TIMEOUT}s: #{err.value.strip}"
      end
      status = waiter.value
      raise Error, "siwa-mock #{args.first} failed (exit #{status.exitstatus}): #{err.value.strip}" unless status.success?
      out.value
    end
  end

  # The web flow via `siwa-mock signin`: {"token_response", "claims" (verified), "user" (first sign-in)}.
  # `team_id`, `key_id` and `key` (a .p8 file) sign the client secret with your team's own key, for a
  # scenario with its own `teams:`; without them, the built-in scenario's published test key.
  def sign_in(user = "alice", client: "com.example.web", scopes: [], nonce: nil, team_id: nil, key_id: nil, key: nil)
    args = ["signin", "--url", @url, "--user", user, "--client", client]
    scopes = Array(scopes)
    args += ["--scope", scopes.join(" ")] unless scopes.empty?
    args += ["--nonce", nonce] if nonce
    JSON.parse(run(*args, *key_flags(team_id, key_id, key)))
  end

  # An ES256 client secret from `siwa-mock client-secret` (default: the built-in scenario's test key).
  def client_secret(client = "com.example.web", team_id: nil, key_id: nil, key: nil)
    run("client-secret", "--client-id", client, *key_flags(team_id, key_id, key)).strip
  end

  # Claims of an id_token that `siwa-mock verify` accepts (signature, iss, aud, exp, iat, nonce).
  def verify(id_token, audience: nil, nonce: nil)
    args = ["verify", "--url", @url]
    args += ["--audience", audience] if audience
    args += ["--nonce", nonce] if nonce
    line = run(*args, id_token).lines.find { |l| l.start_with?("claims: ") }
    raise Error, "siwa-mock verify printed no claims line" unless line
    JSON.parse(line.delete_prefix("claims: "))
  end

  # -- the control API (docs/control-api.md) -----------------------------------------------------

  # A control call; the decoded JSON answer. `timeout` (seconds) bounds the whole call, body included,
  # not each read; an answer over 16 MiB is refused, and a redirect is never followed (it would carry
  # the admin token to wherever it points): each raises SiwaMock::Error saying so.
  def request(method, path, body = nil, timeout: 15)
    uri = URI(@url + path)
    request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri)
    if body
      request["Content-Type"] = "application/json"
      request.body = JSON.generate(body)
    end
    request["Authorization"] = "Bearer #{@admin_token}" if @admin_token
    response, text = exchange(uri, request, "#{method} #{path}", "#{method} #{@url}#{path}", timeout)
    if response.code.start_with?("3")
      raise Error, "#{method} #{path} answered #{response.code} (a redirect to #{response['Location'] || 'nowhere'}): " \
                   "not followed, so the admin token stays with the mock"
    end
    raise Error, "#{method} #{path} answered #{response.code}: #{text}" unless response.code.start_with?("2")
    text.empty? ? nil : JSON.parse(text)
  end

  def health = request("GET", "/mock/health")
  def reset = request("POST", "/mock/reset")
  def clock = request("GET", "/mock/clock")
  # "90s", "1h30m", "1d", "-2d"
  def advance_clock(by) = request("POST", "/mock/clock", { "advance" => by })
  def set_clock(to) = request("POST", "/mock/clock", { "set" => to })
  def freeze_clock(frozen = true) = request("POST", "/mock/clock", { "freeze" => frozen })
  # A rule such as {"id" => "down", "match" => "POST /auth/token", "status" => 503}
  def add_fault(rule) = request("POST", "/mock/faults", rule)
  def remove_fault(id) = request("DELETE", "/mock/faults/#{escape(id)}")
  def faults = request("GET", "/mock/faults")["faults"]
  def users = request("GET", "/mock/users")["users"]
  def user(id) = request("GET", "/mock/users/#{escape(id)}")
  def add_user(user) = request("POST", "/mock/users", user)
  def update_user(id, changes) = request("PATCH", "/mock/users/#{escape(id)}", changes)
  def revoke_user(id) = update_user(id, { "credential_state" => "revoked" })
  def delete_user(id) = request("DELETE", "/mock/users/#{escape(id)}")

  # The journal of what your backend sent (filters: path, client_id, user).
  def requests(**filters)
    query = URI.encode_www_form(filters)
    answer = request("GET", "/mock/requests#{query.empty? ? '' : "?#{query}"}")
    answer.is_a?(Hash) ? answer.fetch("requests", answer) : answer
  end

  def clear_requests = request("DELETE", "/mock/requests")

  # -- the relay's mailbox (docs/relay-mail.md#the-mailbox-mockmail) -----------------------------

  # The stored records, oldest first (filters: relay_address, real_address, team, sender, status, since).
  def mail(**filters)
    query = URI.encode_www_form(filters)
    request("GET", "/mock/mail#{query.empty? ? '' : "?#{query}"}")["messages"]
  end

  # The records matching `filters` (as `mail`) as soon as one is stored: one long poll,
  # `GET /mock/mail?…&wait=`, which answers at once when one already is. `timeout` is a duration
  # ("500ms", "5s", "1m"; at most "1h") or seconds. When nothing matching came, raises SiwaMock::Error
  # with the mock's own `no_mail` text: the filters, the time waited and what the mailbox holds
  # (docs/relay-mail.md).
  def wait_for_mail(timeout: "5s", **filters)
    wait = timeout.is_a?(Numeric) ? "#{(timeout * 1000).round}ms" : timeout.to_s # the mock reads it
    query = URI.encode_www_form(filters.merge(wait: wait))
    answer = request("GET", "/mock/mail?#{query}", timeout: self.class.milliseconds(wait) / 1000.0 + 15)
    return answer["messages"] unless answer["messages"].empty?

    raise Error, answer["no_mail"] || "GET /mock/mail?#{query}: no mail (this mock does not say why: older than the helper?)"
  end

  # Empties the mailbox and the relay's daily counts (DELETE /mock/mail).
  def clear_mail = request("DELETE", "/mock/mail")

  # How long a `wait=` in the mock's duration grammar (`1m30s`, `500ms`; docs/scenarios.md) lasts, to bound
  # the call; 0 for text the mock will refuse at once with its own reason.
  def self.milliseconds(duration)
    match = /\A(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?\z/.match(duration)
    return 0 if duration.empty? || !match

    match.captures.zip([86_400_000, 3_600_000, 60_000, 1000, 1]).sum { |part, unit| part.to_i * unit }
  end

  private

  # `--team-id`, `--key-id`, `--key` for those given (`signin` and `client-secret` take the same three).
  def key_flags(team_id, key_id, key)
    { "--team-id" => team_id, "--key-id" => key_id, "--key" => key }.compact.flat_map { |flag, value| [flag, value.to_s] }
  end

  # Net::HTTP follows no redirect; its timeouts are per read, so the whole exchange runs under one deadline.
  def exchange(uri, request, call, where, timeout)
    text = +""
    response = Timeout.timeout(timeout, DeadlineExceeded) do
      Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https", open_timeout: timeout, read_timeout: timeout) do |http|
        http.request(request) do |answer|
          answer.read_body do |chunk|
            text << chunk
            raise Error, "#{call}: the answer is larger than #{MAX_ANSWER_BYTES >> 20} MiB; refused" if text.bytesize > MAX_ANSWER_BYTES
          end
        end
      end
    end
    [response, text.force_encoding(Encoding::UTF_8)]
  rescue DeadlineExceeded
    raise Error, "#{where}: no complete answer within #{timeout}s"
  rescue SystemCallError, IOError, Timeout::Error, Net::HTTPBadResponse => e
    raise Error, "#{where}: #{e.message}; is the mock running? #{HINT}"
  end

  # Raised by the deadline (a class of its own, so a read timeout inside it is told apart).
  class DeadlineExceeded < StandardError; end

  def smtp_address=(address)
    host, _, port = address.strip.rpartition(":")
    raise Error, "SIWA_MOCK_SMTP=#{address.inspect} is not HOST:PORT" if host.empty? || port !~ /\A\d+\z/
    @smtp_host = host
    @smtp_port = port.to_i
  end

  def escape(segment) = URI.encode_www_form_component(segment).gsub("+", "%20")
end
