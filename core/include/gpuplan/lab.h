// The lab's own resources and defaults (request `lab`, docs/api.md "Lab
// settings"): the cards in its room, its campus centre's quote and queue, the
// quotes it negotiated, and the defaults a lab's wiki page hands every student.
// The planner weighs running on them against renting (plan/lab_options.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"

namespace gpuplan {

// One group of the lab's cards: `count` cards of one type spread evenly over
// `machines` machines (cards on one machine talk over its PCIe or NVLink;
// several machines only over the lab's network, so a job spans them only
// where a rented cluster's would: not GeForce cards, whole machines).
struct LabGpus {
  std::string gpu;            // catalog id
  int count = 1;
  int machines = 1;
  double wait_hours = 0;      // until a student usually gets them; 0: free now
  double hours_per_week = 168; // hours a week one student can usually hold them
  // The cards as a platform the planner rents at no price (built when the
  // request is read; the planner's offers point at it).
  Platform platform;
};

// The campus computing centre the lab uses: its card-hour quotes on the
// catalog's campus template, its typical queue and its per-user limits.
struct LabCampus {
  double wait_hours = 0;      // typical queue before a job starts
  int max_gpus = 0;           // per job and user; 0: no limit stated
  double max_hours = 0;       // wall-clock limit of one job; 0: none stated
};

// The power the lab's cards draw, charged at a tariff (lab.electricity).
struct ElectricityCharge {
  double kwh = 0;
  double per_kwh = 0;
  double watts_per_gpu = 0;
  std::string currency;
  std::string as_of;
  std::string source;         // the catalog's tariff source, or "lab" for the lab's own rate
  std::string confidence;
};

struct Lab {
  std::string name;           // whose settings ("王老师课题组")
  std::string written;        // when they were written (ISO date)
  std::string notes;
  std::vector<std::string> models;  // presets the lab uses, shown first by the page
  std::vector<LabGpus> gpus;
  std::optional<LabCampus> campus;
  // Electricity: charged when `electricity` is true, at electricity_per_kwh
  // or the catalog's tariff (catalog/meta.json); otherwise the lab's cards cost 0.
  bool electricity = false;
  double electricity_per_kwh = -1;  // in electricity_currency; < 0: the catalog's tariff
  std::string electricity_currency = "CNY";
};

}  // namespace gpuplan
