# The helper's own spec, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY).
require "net/http"
require "net/smtp"
require "tmpdir"
require "siwa_mock/rspec"

RSpec.describe "siwa_mock", :siwa_mock do
  it "signs in with verified tokens, scopes and nonce" do
    result = siwa_mock.sign_in("alice", scopes: %w[name email], nonce: "n-1")
    expect(result["claims"]).to include("email" => "alice@example.com", "nonce" => "n-1", "aud" => "com.example.web")
    expect(result["user"]["name"]["firstName"]).to eq("Alice")
    claims = siwa_mock.verify(result["token_response"]["id_token"], audience: "com.example.web", nonce: "n-1")
    expect(claims["sub"]).to eq(result["claims"]["sub"])
  end

  it "refuses a tampered token" do
    alice = siwa_mock.sign_in("alice")["token_response"]["id_token"].split(".")
    bob = siwa_mock.sign_in("bob")["token_response"]["id_token"].split(".")
    # bob's claims under alice's signature
    expect { siwa_mock.verify([alice[0], bob[1], alice[2]].join(".")) }.to raise_error(SiwaMock::Error, /verify failed/)
  end

  it "mints a client secret the token endpoint accepts" do
    response = Net::HTTP.post_form(URI("#{siwa_mock.url}/auth/token"),
                                   "grant_type" => "client_credentials", "scope" => "user.migration",
                                   "client_id" => "com.example.web", "client_secret" => siwa_mock.client_secret)
    expect(response.code).to eq("200")
    expect(JSON.parse(response.body)).to include("access_token")
  end

  it "fails sign-in with the mock's answer under a fault" do
    siwa_mock.add_fault("id" => "token-down", "match" => "POST /auth/token", "status" => 503)
    expect { siwa_mock.sign_in("alice") }.to raise_error(SiwaMock::Error, /503/)
    siwa_mock.remove_fault("token-down")
    expect(siwa_mock.sign_in("alice")["claims"]["aud"]).to eq("com.example.web")
  end

  it "moves the clock, manages users and reads the journal" do
    before = siwa_mock.clock["epoch_seconds"]
    siwa_mock.advance_clock("1d")
    expect(siwa_mock.clock["epoch_seconds"]).to be >= before + 86_400
    siwa_mock.add_user("id" => "dave", "email" => "dave@example.com")
    expect(siwa_mock.sign_in("dave")["claims"]["sub"]).to eq(siwa_mock.user("dave")["sub"])
    siwa_mock.revoke_user("dave")
    expect(siwa_mock.requests(path: "/auth/token", user: "dave").last["status"]).to eq(200)
    siwa_mock.clear_requests
    expect(siwa_mock.requests).to eq([])
  end

  it "starts each example from the scenario" do
    expect(siwa_mock.requests).to eq([])
    expect { siwa_mock.user("dave") }.to raise_error(SiwaMock::Error, /404/)
  end
end

RSpec.describe SiwaMock do
  it "says how to get a binary when the path is wrong" do
    expect { SiwaMock.start(binary: "/nonexistent/siwa-mock") }
      .to raise_error(SiwaMock::Error, /siwa-mock binary not found.*swift build.*SIWA_MOCK_BINARY/)
  end

  it "shows the mock's stderr when it cannot start" do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, "broken.yaml"), "users:\n  - id: [\n")
      expect { SiwaMock.start(scenario: File.join(dir, "broken.yaml")) }
        .to raise_error(SiwaMock::Error, /did not start.*broken\.yaml:/m)
    end
  end
end

# scenarios/relay-mail.yaml registers shop.example for team ABCDE12345, whose user bob has this relay
# address (the built-in scenario registers no sender, so every message there is refused).
RSpec.describe "relay mail" do
  bob = "k7x2m9q4ab@privaterelay.appleid.com"
  # Its own mock with the relay scenario, started once for the group.
  before(:context) do
    @relay = SiwaMock.start(scenario: File.expand_path("../../../scenarios/relay-mail.yaml", __dir__), smtp: true)
  end
  after(:context) { @relay&.stop }

  define_method(:send_mail) do |subject|
    message = "From: Shop <hello@shop.example>\r\nTo: #{bob}\r\nSubject: #{subject}\r\n\r\nHello Bob\r\n"
    Net::SMTP.start(@relay.smtp_host, @relay.smtp_port) { |smtp| smtp.send_message(message, "hello@shop.example", bob) }
  end

  it "returns from wait_for_mail as soon as the message arrives" do
    @relay.clear_mail
    expect(@relay.mail(relay_address: bob)).to eq([])
    began = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    sender = Thread.new { sleep 0.3; send_mail("Your code is 123456") }
    messages = @relay.wait_for_mail(relay_address: bob, status: "delivered", timeout: "10s")
    elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - began
    sender.join # raises the sender's SMTP error, if any
    expect(elapsed).to be_between(0.3, 3)
    expect(messages.map { |m| [m["subject"], m["delivered_to"]] }).to eq([["Your code is 123456", "bob@example.com"]])
    expect(@relay.mail(status: "delivered")).to eq(messages)
  end

  it "says what the mailbox holds when the mail never comes" do
    @relay.clear_mail
    send_mail("Welcome")
    began = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    expect { @relay.wait_for_mail(relay_address: bob, status: "rejected", timeout: "1s") }
      .to raise_error(SiwaMock::Error, /\Ano mail matching relay_address=k7x2m9q4ab@privaterelay\.appleid\.com status=rejected in 1s; the mailbox has 1 record: m\d+ delivered hello@shop\.example -> k7x2m9q4ab@privaterelay\.appleid\.com "Welcome"\z/)
    expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - began).to be >= 1
    expect { @relay.wait_for_mail(timeout: "5") }.to raise_error(SiwaMock::Error, /expected a duration/)
  end

  it "takes a running mock's SMTP address from SIWA_MOCK_SMTP" do
    saved = ENV.delete("SIWA_MOCK_SMTP")
    expect { SiwaMock.connect(@relay.url, smtp: true) }.to raise_error(SiwaMock::Error, /set SIWA_MOCK_SMTP/)
    ENV["SIWA_MOCK_SMTP"] = "#{@relay.smtp_host}:#{@relay.smtp_port}"
    expect(SiwaMock.connect(@relay.url, smtp: true).smtp_port).to eq(@relay.smtp_port)
  ensure
    saved ? ENV["SIWA_MOCK_SMTP"] = saved : ENV.delete("SIWA_MOCK_SMTP")
  end
end

RSpec.describe SiwaMock do
  it "leaves no files behind when stopped" do
    mock = SiwaMock.start
    log = mock.log_path
    expect(File.exist?(log)).to be(true)
    mock.stop
    expect(File.exist?(log)).to be(false)
    expect(mock.log_path).to be_nil
  end
end
