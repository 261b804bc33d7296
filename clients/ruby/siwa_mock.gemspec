Gem::Specification.new do |spec|
  spec.name = "siwa_mock"
  spec.version = "0.1.0"
  spec.summary = "Run siwa-mock, the fake Sign in with Apple server, from RSpec (standard library only)"
  spec.authors = ["The siwa-mock contributors"]
  spec.license = "MIT"
  spec.files = ["lib/siwa_mock.rb", "lib/siwa_mock/rspec.rb"]
  spec.required_ruby_version = ">= 3.0"
end
